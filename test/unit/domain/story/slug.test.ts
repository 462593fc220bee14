import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { isValidSlug, MAX_SLUG_TITLE_CHARS, parseSlug, slugFor, slugifyTitle } from '../../../../src/domain/story/slug.ts';
import { faultFields, readStoryFixture } from '../story-fixtures.ts';

describe('slugFor', () => {
  it('is the date, a dash and the slugified title', () => {
    expect(slugFor('2026-10-14', 'My counter doubled when two agents reported at once')).toBe(
      '2026-10-14-my-counter-doubled-when-two-agents-reported-at-once',
    );
  });

  it('folds, drops and cuts the unicode-long-title fixture into an ASCII slug of at most 60 title characters', () => {
    const { date, title } = parseStory(readStoryFixture('unicode-long-title')).frontMatter;
    const slug = slugFor(date, title);
    expect(slug).toBe('2026-11-20-unicode-emoji-and-a-title-that-keeps-going-well-past-sixty');
    expect(slug.length - '2026-11-20-'.length).toBeLessThanOrEqual(MAX_SLUG_TITLE_CHARS);
    expect(isValidSlug(slug)).toBe(true);
  });

  it('gives the same slug for NFC and NFD spellings of a title', () => {
    const title = 'Ünïcode café';
    expect(slugFor('2026-11-20', title.normalize('NFD'))).toBe(slugFor('2026-11-20', title.normalize('NFC')));
  });

  it('folds accents and letters NFKD leaves alone', () => {
    expect(slugifyTitle('Über Straße, Ærø and Łódź')).toBe('uber-strasse-aero-and-lodz');
    expect(slugifyTitle('ﬁne ＦＵＬＬＷＩＤＴＨ')).toBe('fine-fullwidth');
  });

  it('drops emoji and symbols without leaving double, leading or trailing dashes', () => {
    expect(slugifyTitle('🚀 -- Ship it!! 🚀 --')).toBe('ship-it');
    expect(slugifyTitle('a / b \\ c')).toBe('a-b-c');
  });

  it('drops apostrophes inside words', () => {
    expect(slugifyTitle("Agent can't find it")).toBe('agent-cant-find-it');
    expect(slugifyTitle('Agent can’t find it')).toBe('agent-cant-find-it');
  });

  it('cuts at a word boundary, never leaving a trailing dash', () => {
    const title = `${'word '.repeat(12)}tail`; // 12 words make 59 characters; "-tail" would pass 60
    const part = slugifyTitle(title);
    expect(part.length).toBeLessThanOrEqual(MAX_SLUG_TITLE_CHARS);
    expect(part).toBe(Array(12).fill('word').join('-'));
  });

  it('keeps a word that ends exactly at 60 characters', () => {
    const title = `${'a'.repeat(55)} bcde fgh`;
    expect(slugifyTitle(title)).toBe(`${'a'.repeat(55)}-bcde`);
  });

  it('hard-cuts a single word longer than 60 characters', () => {
    expect(slugifyTitle('x'.repeat(80))).toBe('x'.repeat(60));
  });

  it('falls back to story- plus a hash for a title with nothing ASCII in it, distinct per title', () => {
    const rocket = slugFor('2026-11-20', '🚀🚀');
    expect(rocket).toMatch(/^2026-11-20-story-[0-9a-f]{8}$/);
    expect(slugFor('2026-11-20', '🚀🚀')).toBe(rocket);
    expect(slugFor('2026-11-20', 'Привет мир')).not.toBe(rocket);
    expect(isValidSlug(rocket)).toBe(true);
  });
});

describe('isValidSlug and parseSlug', () => {
  it('accepts slugs slugFor makes', () => {
    expect(isValidSlug('2026-10-14-my-counter')).toBe(true);
    expect(isValidSlug('2026-10-14-a')).toBe(true);
  });

  it('refuses uppercase, double dashes, trailing dashes, missing title part, bad dates and over-long title parts', () => {
    for (const slug of [
      '2026-10-14-My-counter',
      '2026-10-14-my--counter',
      '2026-10-14-my-counter-',
      '2026-10-14-',
      '2026-10-14',
      '2026-02-30-counter',
      '26-10-14-counter',
      `2026-10-14-${'x'.repeat(61)}`,
      'my-counter',
      '2026-10-14-über',
      '2026-10-14-my counter',
    ]) {
      expect(isValidSlug(slug), slug).toBe(false);
    }
  });

  it('parseSlug returns a valid slug and refuses others naming the slug field', () => {
    expect(parseSlug('2026-10-14-my-counter')).toBe('2026-10-14-my-counter');
    expect(Object.keys(faultFields(() => parseSlug('Not A Slug')))).toEqual(['slug']);
    expect(Object.keys(faultFields(() => parseSlug(42)))).toEqual(['slug']);
  });
});
