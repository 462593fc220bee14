// The answer-link scan on hostile text, as a ratio against plain prose of the same length measured
// in the same run: 64 KiB narratives of backtick runs (every length once, unclosed; and thousands
// of single backticks), and of slugs and URLs, against 64 KiB of ordinary words. A scan that
// searched onward from each backtick would be quadratic here; the per-length queues keep it linear.
// Run: node_modules/.bin/node test/bench/answer-links.ts
import { namedStorySlugs } from '../../src/domain/story/answer-links.ts';

const SIZE = 64 * 1024;
const fill = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const texts = {
  prose: fill('The counter doubled when two agents reported at once, so we moved the guard. '),
  distinctRuns: Array.from({ length: 350 }, (_, index) => '`'.repeat(index + 1))
    .join(' x ')
    .slice(0, SIZE),
  singleBackticks: fill('` x '),
  slugs: fill('2026-11-02-some-story-name /s/2026-11-03-other https://other.example/s/2026-11-04-x '),
};

function medianMs(text: string): number {
  const times: number[] = [];
  for (let round = 0; round < 15; round += 1) {
    const started = performance.now();
    namedStorySlugs(text, 'https://lorebook.example', '2026-01-01-self');
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[7]!;
}

const reference = medianMs(texts.prose);
console.log(`prose (reference): ${reference.toFixed(2)} ms`);
for (const [name, text] of Object.entries(texts)) {
  if (name === 'prose') continue;
  console.log(`${name}: ${(medianMs(text) / reference).toFixed(1)}× prose`);
}
