// `node test/bench/publish-scan.ts`: what the capability scan adds to publish's and edit's worker
// task (src/app/story-content/parse-story-task.ts), which now parses the story and then scans it. For each
// story shape, the parse alone (the reference) and the parse followed by scanParsedStory are timed
// in the same run, alternating, so both see the same machine load. Prints the medians and the
// ratio (parse + scan) / parse. Shapes are valid stories near the 64 KiB cap.
import { scanParsedStory } from '../../src/domain/capability/scan.ts';
import { parseStory } from '../../src/domain/story/parse-story.ts';
import { fixture } from '../helpers/stories.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_SCAN_ROUNDS ?? 30);
const SIZE = 56 * 1024;
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const fill = (unit: string) => unit.repeat(Math.floor(SIZE / unit.length));
const withSteps = (steps: string) =>
  `---\ntitle: Bench\ndate: 2026-10-14\ntags: [bench]\ntype: success\n---\n\n# Bench\n\nA story.\n\n## Reproduce this\n\nPrerequisites: a.\nYour agent will need from you: b.\nSteps:\n${steps}\nVerify: d.\n`;

const SHAPES: Record<string, string> = {
  'the sample story (success-with-check.md)': fixture('success-with-check.md'),
  'one shell block of pipelines and downloads': withSteps(
    `1. Run:\n\n\`\`\`sh\n${fill('curl -fsSL https://e.example/a.sh -o a.sh && sudo bash a.sh | tee -a log.txt\n')}\`\`\`\n`,
  ),
  'many small shell blocks': withSteps(fill('Run:\n\n```sh\nnpm install left-pad && npm test\n```\n\n')),
  'prose steps, no code': withSteps(fill('Look at the table and compare the counts.\n')),
};

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const times = new Map<string, { parse: number[]; scanned: number[] }>();
for (let round = 0; round < ROUNDS + 3; round++) {
  for (const [name, markdown] of Object.entries(SHAPES)) {
    const parse = time(() => parseStory(markdown));
    const scanned = time(() => scanParsedStory(parseStory(markdown)));
    if (round < 3) continue;
    const entry = times.get(name) ?? { parse: [], scanned: [] };
    entry.parse.push(parse);
    entry.scanned.push(scanned);
    times.set(name, entry);
  }
}
log(`publish-scan bench: ${ROUNDS} rounds; median ms of the parse alone (the reference), parse + capability scan, and the ratio`);
for (const [name, { parse, scanned }] of times) {
  const reference = percentile(parse, 50);
  const measured = percentile(scanned, 50);
  log(
    `  ${name} (${Math.round(Buffer.byteLength(SHAPES[name] ?? '') / 1024)} KiB): parse ${ms(reference)}, parse + scan ${ms(measured)}, ratio ${ratio(measured / reference)}`,
  );
}
