import { createHash } from 'node:crypto';
import { validationFailed } from '../errors.ts';
import { isCalendarDate } from './calendar-date.ts';

/** Longest title part of a slug, in characters. */
export const MAX_SLUG_TITLE_CHARS = 60;

// Letters NFKD does not decompose into ASCII + marks, folded the way people write them in ASCII.
const FOLDS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
  ŋ: 'ng',
  Ŋ: 'ng',
};

const SLUG = /^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * The title part of a slug: ASCII letters and digits, lowercase, single dashes. Accented letters
 * are folded (NFKD, combining marks dropped: "Ünïcode" -> "unicode"), apostrophes vanish
 * ("can't" -> "cant"), anything else that is not ASCII (emoji, other scripts) is dropped. Cut at
 * 60 characters on a word boundary when there is one. May be empty.
 */
export function slugifyTitle(title: string): string {
  const ascii = [...title.normalize('NFKC')]
    .map((char) => FOLDS[char] ?? char)
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (ascii.length <= MAX_SLUG_TITLE_CHARS) return ascii;
  const head = ascii.slice(0, MAX_SLUG_TITLE_CHARS);
  const wordEnds = ascii[MAX_SLUG_TITLE_CHARS] === '-';
  const lastDash = head.lastIndexOf('-');
  return (wordEnds || lastDash === -1 ? head : head.slice(0, lastDash)).replace(/-+$/, '');
}

/**
 * `YYYY-MM-DD-` + slugified title (docs/design.md#story-format). A title with nothing ASCII left (only emoji or a
 * non-Latin script) gets `story-` + the first 8 hex of sha256(NFC title): stable for retries of
 * the same title, and two such titles on one day do not collide into one story.
 */
export function slugFor(date: string, title: string): string {
  const titlePart = slugifyTitle(title);
  if (titlePart !== '') return `${date}-${titlePart}`;
  const digest = createHash('sha256').update(title.normalize('NFC').trim(), 'utf8').digest('hex');
  return `${date}-story-${digest.slice(0, 8)}`;
}

/** True for a slug slugFor could have made: a real date, then 1–60 chars of lowercase ASCII words. */
export function isValidSlug(slug: string): boolean {
  const match = SLUG.exec(slug);
  return match !== null && isCalendarDate(match[1] ?? '') && (match[2] ?? '').length <= MAX_SLUG_TITLE_CHARS;
}

/** Checks an explicit `slug` argument; throws validation_failed naming `slug` when it is not one. */
export function parseSlug(value: unknown): string {
  if (typeof value === 'string' && isValidSlug(value)) return value;
  throw validationFailed(`${JSON.stringify(value) ?? String(value)} is not a story slug.`, {
    slug: 'A slug is the story date and title in lowercase ASCII words, e.g. `2026-10-14-my-counter-doubled`; copy it from the story URL or from search_stories.',
  });
}
