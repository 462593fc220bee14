// `node test/bench/story-format.ts`: what reading labels where a line or a sentence starts costs.
// Each shape is ~60 KiB of text built to stress the label and step search (near-miss labels on
// one line, thousands of sentences that start with a label, thousands of plain step lines, a
// label that is never found). It is parsed twice per round: inside the section whose labels are
// searched, and as the narrative (the same markdown parsing, no label search) next to a minimal
// section — the reference, in the same run. Runs alternate, so both see the same machine load.
// Prints the medians and the ratio section/narrative: what the label search adds to parsing.
import { parseStory } from '../../src/domain/story/parse-story.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_FORMAT_ROUNDS ?? 30);
const SIZE = 60 * 1024;
const log = (line: string): void => void process.stdout.write(`${line}\n`);

function story(narrative: string, sections: string): string {
  return `---\ntitle: Bench\ndate: 2026-10-14\ntags: [bench]\ntype: success\n---\n\n# Bench\n\n${narrative}\n\n${sections}\n`;
}

const fill = (unit: string) => unit.repeat(Math.floor(SIZE / unit.length));
const reproduce = (steps: string) =>
  `## Reproduce this\n\nPrerequisites: a.\nYour agent will need from you: b.\nSteps:\n${steps}\nVerify: d.`;
const check = (steps: string) =>
  `## Check if this applies to you\n\nApplies if: a.\n${steps}\nHas the problem: b. Doesn't have it: c.\n\n${reproduce('1. c.')}`;
const unfinishedCheck = (steps: string) => `## Check if this applies to you\n\nApplies if: a.\n${steps}\n\n${reproduce('1. c.')}`;

/** Each shape: the stress text, and the section it goes in. */
const SHAPES: Record<string, { text: string; section: (text: string) => string }> = {
  'plain prose under Steps:': { text: fill('The table keeps one row per caller. '), section: reproduce },
  'near-miss labels on one line': { text: fill('xverify: asteps: '), section: reproduce },
  'a sentence per label, thousands of times': { text: fill('Verify: a. Steps: b. '), section: reproduce },
  'thousands of plain read-only step lines': { text: fill('Look at the table.\n'), section: check },
  'a label never found (refused)': { text: fill('Read-only steps: x. '), section: unfinishedCheck },
};

function timeOnce(markdown: string): number {
  const start = performance.now();
  try {
    parseStory(markdown);
  } catch {
    // A refusal is an answer too: its cost is what is measured.
  }
  return performance.now() - start;
}

const times = new Map<string, { searched: number[]; narrative: number[] }>();
for (let round = 0; round < ROUNDS + 3; round++) {
  for (const [name, { text, section }] of Object.entries(SHAPES)) {
    const searched = timeOnce(story('A story.', section(text)));
    const narrative = timeOnce(story(text, section('1. c.')));
    if (round < 3) continue;
    const entry = times.get(name) ?? { searched: [], narrative: [] };
    entry.searched.push(searched);
    entry.narrative.push(narrative);
    times.set(name, entry);
  }
}
log(
  `story-format bench: ${ROUNDS} rounds, ~${SIZE / 1024} KiB of text per shape; median parse ms in the searched section, as the narrative (the reference), and the ratio`,
);
for (const [name, { searched, narrative }] of times) {
  const [inSection, asNarrative] = [percentile(searched, 50), percentile(narrative, 50)];
  log(`  ${name.padEnd(44)} ${ms(inSection).padStart(9)} ${ms(asNarrative).padStart(9)}  ${ratio(inSection / asNarrative)}`);
}
