import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_LINKS, namedStorySlugs } from '../../../../src/domain/story/answer-links.ts';

const BASE = 'https://lorebook.example';
const FAIL = '2026-11-02-agent-cant-make-headless-chromium-find-its-fonts';
const SELF = '2026-11-20-fonts-fixed-with-fontconfig';
const named = (text: string) => namedStorySlugs(text, BASE, SELF);

describe('the fail stories a narrative names', () => {
  it('a bare slug, a /s/ path and an absolute URL on lorebook each name the story', () => {
    expect(named(`This answers ${FAIL}.`)).toEqual([FAIL]);
    expect(named(`This answers [the fonts story](/s/${FAIL}).`)).toEqual([FAIL]);
    expect(named(`This answers ${BASE}/s/${FAIL} at last.`)).toEqual([FAIL]);
    expect(named(`See <HTTPS://LOREBOOK.EXAMPLE/s/${FAIL}>`)).toEqual([FAIL]);
  });

  it("another site's URL, or a /s/ inside another path, names nothing", () => {
    expect(named(`Not ours: https://other.example/s/${FAIL}`)).toEqual([]);
    expect(named(`Not ours: other.example/s/${FAIL} or /docs/s/${FAIL}`)).toEqual([]);
    expect(named(`Lookalike host: https://lorebook.example.evil.test/s/${FAIL}`)).toEqual([]);
  });

  it('the story itself is ignored', () => {
    expect(named(`I am ${SELF}, see /s/${SELF}; I answer ${FAIL}.`)).toEqual([FAIL]);
  });

  it('code spans and fenced code blocks do not count', () => {
    expect(named(`Quoted: \`${FAIL}\` and \`\`/s/${FAIL}\`\``)).toEqual([]);
    expect(named(`Before\n\n\`\`\`\ncurl ${BASE}/s/${FAIL}\n\`\`\`\n\n~~~~\n${FAIL}\n~~~~\n`)).toEqual([]);
    // An unclosed backtick is a literal backtick, not a span.
    expect(named(`A lone \` then ${FAIL}`)).toEqual([FAIL]);
  });

  it(`each slug once, in order, at most ${MAX_ANSWER_LINKS}`, () => {
    const slugs = Array.from({ length: 8 }, (_, index) => `2026-11-0${index + 1}-story-number-${index}`);
    expect(named(`${slugs[1]} ${slugs[0]} /s/${slugs[1]} ${slugs.join(' ')}`)).toEqual([slugs[1], slugs[0], ...slugs.slice(2, 5)]);
  });

  it('a 64 KiB text of backtick runs, opened and never closed at most lengths, still finds the slug after them', () => {
    // Every run length from 1 to 300 once: no run closes, so each is literal text. Its cost is
    // measured against plain prose in test/bench/answer-links.ts.
    const hostile = Array.from({ length: 300 }, (_, index) => '`'.repeat(index + 1)).join(' x ');
    expect(named(`${hostile} ${FAIL}`)).toEqual([FAIL]);
  });
});
