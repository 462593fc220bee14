import { describe, expect, it } from 'vitest';
import { MAX_SUMMARY_CHARS, summarize, truncateOnWord } from '../../../../src/domain/story/summary.ts';

describe('summarize', () => {
  it('takes the first paragraph only', () => {
    expect(summarize('First one.\n\nSecond one.')).toBe('First one.');
  });

  it('drops markup but keeps link and code text, collapsing line breaks', () => {
    expect(summarize('I used **DynamoDB** and [the `SDK`](https://x.test)\nwith _care_.')).toBe('I used DynamoDB and the SDK with care.');
  });

  it('uses the first paragraph even when the narrative starts with a list', () => {
    expect(summarize('- item one\n- item two')).toBe('item one');
  });

  it(`cuts a long paragraph at a word boundary within ${MAX_SUMMARY_CHARS} characters and ends it with …`, () => {
    const summary = summarize('word '.repeat(100));
    expect([...summary].length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(summary).toMatch(/word…$/);
    expect(summary).not.toMatch(/ …$/);
  });

  it('leaves a 280-character paragraph whole', () => {
    const text = 'x'.repeat(MAX_SUMMARY_CHARS);
    expect(summarize(text)).toBe(text);
  });
});

describe('truncateOnWord', () => {
  it('hard-cuts a single long word and still ends with …', () => {
    expect(truncateOnWord('y'.repeat(300), 10)).toBe(`${'y'.repeat(9)}…`);
  });

  it('drops trailing punctuation before the …', () => {
    expect(truncateOnWord('one, two, three four', 10)).toBe('one, two…');
  });

  it('counts emoji as one character', () => {
    expect(truncateOnWord('🚀🚀🚀', 3)).toBe('🚀🚀🚀');
  });
});
