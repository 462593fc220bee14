// Fuzzing the markdown cost limits with fast-check: markdown built from the characters that make
// CommonMark structure, both as free-form documents and as one short fragment repeated to tens of
// KiB (the shape every super-linear case in the issue has). Whatever the pre-scan accepts must
// parse and render within a time bound, and render to no more HTML than the pre-scan estimated
// (the bound on the renderer's memory and the page's size). The seeds are fixed so a run is
// reproducible; `npm run fuzz:markdown` explores with fresh seeds and many more cases.
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { markdownCostFaults } from '../../../../../src/domain/story/markdown-cost.ts';
import { measureMarkdownShape } from '../../../../../src/domain/story/markdown-shape.ts';
import { renderMarkdown } from '../../../../../src/http/pages/render-markdown.ts';
import { MARKDOWN_TOKENS } from '../../../../helpers/markdown-tokens.ts';

const token = fc.constantFrom(...MARKDOWN_TOKENS);
/** A document of up to ~2 KiB of structure-making tokens. */
const freeForm = fc.array(token, { maxLength: 400 }).map((tokens) => tokens.join(''));
/** One fragment of 1–8 tokens repeated to 8–24 KiB. */
const repeated = fc
  .tuple(fc.array(token, { minLength: 1, maxLength: 8 }), fc.integer({ min: 8 * 1024, max: 24 * 1024 }))
  .map(([fragment, bytes]) => {
    const unit = fragment.join('');
    return unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
  });

/** Generous for a loaded 2-core machine: 24 KiB within the limits renders in tens of ms. */
const TIME_BOUND_MS = 3_000;
/** How much slower than plain prose of the same size a case may be when the machine is so loaded that prose itself is slow. */
const PROSE_RATIO_BOUND = 40;

/** Parse and render, timed. */
function parseAndRender(markdown: string): { html: string; ms: number } {
  const started = performance.now();
  fromMarkdown(markdown);
  const html = renderMarkdown(markdown);
  return { html, ms: performance.now() - started };
}

function checkBounded(markdown: string): void {
  const shape = measureMarkdownShape(markdown);
  if (markdownCostFaults(markdown, shape).length > 0) return;
  const { html, ms: elapsed } = parseAndRender(markdown);
  // The reference, measured right after on the same machine: plain prose as long as the case.
  const prose = parseAndRender('word '.repeat(Math.ceil(markdown.length / 5))).ms;
  const bound = Math.max(TIME_BOUND_MS, PROSE_RATIO_BOUND * prose);
  expect(
    elapsed,
    `parse + render of ${JSON.stringify(markdown.slice(0, 80))}… took ${elapsed} ms (prose of its size: ${prose} ms)`,
  ).toBeLessThan(bound);
  expect(Buffer.byteLength(html), `estimate for ${JSON.stringify(markdown.slice(0, 80))}…`).toBeLessThanOrEqual(shape.renderedBytes);
}

describe('fuzzed markdown within the cost limits', () => {
  it('free-form documents parse and render in bounded time, to no more HTML than estimated', { timeout: 120_000 }, () => {
    fc.assert(fc.property(freeForm, checkBounded), { numRuns: 300, seed: 20_261_201 });
  });

  it('a fragment repeated to tens of KiB parses and renders in bounded time, to no more HTML than estimated', { timeout: 300_000 }, () => {
    fc.assert(fc.property(repeated, checkBounded), { numRuns: 60, seed: 20_261_202 });
  });

  it('the pre-scan itself is linear: a fragment repeated to 64 KiB is measured in well under a second', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 8 }), (fragment) => {
        const unit = fragment.join('');
        const markdown = unit.repeat(Math.floor((64 * 1024) / unit.length) || 1);
        const started = performance.now();
        measureMarkdownShape(markdown);
        expect(performance.now() - started).toBeLessThan(1_000);
      }),
      { numRuns: 100, seed: 20_261_203 },
    );
  });
});
