// `npm run fuzz:markdown [-- --minutes N] [--seed S]`: looks for markdown the cost limits accept
// but micromark parses or renders in super-linear time. It repeats random fragments of 1–4
// structure-making tokens (test/helpers/markdown-tokens.ts) to 16 KiB and to 32 KiB; a fragment
// whose time grows more than 3x when its size doubles (confirmed again to 64 KiB unless that is
// refused), and which costs more than 10x plain prose of its size (measured right after, on the
// same machine), is reported with its times. Exits 1
// when it finds one. The unit fuzz test runs fixed seeds; this explores fresh ones.
import { parseArgs } from 'node:util';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { markdownCostFaults } from '../../src/domain/story/markdown-cost.ts';
import { renderMarkdown } from '../../src/http/pages/render-markdown.ts';
import { MARKDOWN_TOKENS } from '../helpers/markdown-tokens.ts';

const USAGE = `Usage: npm run fuzz:markdown [-- --minutes N] [--seed S]

Repeats random markdown fragments to 16 and 32 KiB and reports those the cost limits accept but
the parser or renderer handles in super-linear time (more than 3x slower at twice the size, and
more than 10x plain prose of the same size). Exits 1 when it finds one.

  --minutes N   how long to explore (default 5)
  --seed S      the random seed (default: a fresh one, printed so a run can be repeated)
  --help        this text`;

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '5' }, seed: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help === true) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const minutes = Number(values.minutes);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isFinite(minutes) || minutes <= 0 || !Number.isInteger(seed)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const SIZE = 16 * 1024;
const GROWTH_BOUND = 3;
const PROSE_RATIO_BOUND = 10;

function costMs(markdown: string): number {
  const started = performance.now();
  fromMarkdown(markdown);
  renderMarkdown(markdown);
  return performance.now() - started;
}

const repeatTo = (unit: string, bytes: number): string => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
const proseMs = (bytes: number): number => costMs(repeatTo('word ', bytes));

/** mulberry32: a small seeded generator, so a seed names a run. */
function seededRandom(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

function* randomFragments(random: () => number): Generator<string> {
  const pick = (): string => MARKDOWN_TOKENS[Math.floor(random() * MARKDOWN_TOKENS.length)]!;
  for (;;) yield Array.from({ length: 1 + Math.floor(random() * 4) }, pick).join('');
}

process.stdout.write(`fuzz:markdown: seed ${seed}, ${minutes} min\n`);
const deadline = Date.now() + minutes * 60_000;
const seen = new Set<string>();
let tried = 0;
let found = 0;
let lastProgress = Date.now();
for (const fragment of randomFragments(seededRandom(seed))) {
  if (Date.now() > deadline) break;
  if (seen.has(fragment)) continue;
  seen.add(fragment);
  const small = repeatTo(fragment, SIZE);
  const large = repeatTo(fragment, 2 * SIZE);
  if (markdownCostFaults(large).length > 0) continue;
  tried += 1;
  const smallMs = costMs(small);
  const largeMs = costMs(large);
  const prose = proseMs(2 * SIZE);
  if (largeMs > GROWTH_BOUND * smallMs && largeMs > PROSE_RATIO_BOUND * prose) {
    // Confirmed on the fastest of three runs each, and over a second doubling, so a pause of a
    // loaded machine is not reported.
    const fastest = (measure: () => number): number => Math.min(measure(), measure(), measure());
    const again = fastest(() => costMs(large));
    const largest = repeatTo(fragment, 4 * SIZE);
    const grows = markdownCostFaults(largest).length > 0 || fastest(() => costMs(largest)) > GROWTH_BOUND * again;
    if (grows && again > GROWTH_BOUND * fastest(() => costMs(small)) && again > PROSE_RATIO_BOUND * fastest(() => proseMs(2 * SIZE))) {
      found += 1;
      process.stdout.write(
        `super-linear: ${JSON.stringify(fragment)} 16 KiB ${smallMs.toFixed(0)} ms, 32 KiB ${largeMs.toFixed(0)} ms, prose ${prose.toFixed(1)} ms\n`,
      );
    }
  }
  if (Date.now() - lastProgress > 30_000) {
    lastProgress = Date.now();
    process.stdout.write(`... ${tried} fragments within the limits tried, ${found} super-linear\n`);
  }
}
process.stdout.write(`fuzz:markdown: ${tried} fragments within the limits tried, ${found} super-linear (seed ${seed})\n`);
process.exit(found > 0 ? 1 : 0);
