// A spammer's copies of one story: each with its own title (so its own slug) and its narrative
// varied the ways that defeat an exact-match filter — a few words swapped, casing, doubled spaces,
// no-break spaces, fullwidth letters and left-to-right marks (invisible, and let through by the
// door because right-to-left writers need them, design.md#hidden-characters). The sections are left as they are.
import {
  bandsOf,
  estimatedSimilarity,
  NEAR_DUPLICATE_SIMILARITY,
  signatureOf,
  storyBody,
} from '../../src/domain/near-duplicate/near-duplicate-signature.ts';
import { topicStory } from './topic-stories.ts';

const SWAPS = ['amazing', 'FREE', 'really', 'now'];
const fullwidth = (word: string): string =>
  [...word].map((c) => (c >= 'a' && c <= 'z' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

function vary(word: string, index: number, copy: number): string {
  const at = index + copy;
  if (index === (copy * 7) % 40 || index === (copy * 13) % 60) return SWAPS[copy % SWAPS.length] as string;
  if (at % 9 === 0) return word.toUpperCase();
  if (at % 11 === 0 && word.length > 3) return `${word.slice(0, 2)}\u200e${word.slice(2)}`;
  if (at % 17 === 0 && /^[a-z]+$/.test(word)) return fullwidth(word);
  return word;
}

/** Any text varied as a spammer varies one copy: `copy` picks which words and spaces change. */
export function spamText(text: string, copy: number): string {
  let index = 0;
  return text.replace(/[^\s]+|[ ]/g, (token) => {
    if (token === ' ') return (index + copy) % 5 === 0 ? '  ' : (index + copy) % 13 === 0 ? '\u00a0' : ' ';
    index += 1;
    return vary(token, index, copy);
  });
}

export function spamCopy(markdown: string, copy: number): string {
  const title = /^title: (.*)$/m.exec(markdown)?.[1] ?? '';
  const retitled = `${title} (${copy % 2 === 0 ? 'FREE' : 'free'} tips ${copy})`;
  const headingAt = markdown.indexOf(`# ${title}\n`);
  const narrativeAt = headingAt + title.length + 3;
  const sectionsAt = markdown.indexOf('\n## ', narrativeAt);
  const narrative = spamText(markdown.slice(narrativeAt, sectionsAt), copy);
  return `${markdown.slice(0, headingAt).replace(`title: ${title}`, `title: ${retitled}`)}# ${retitled}\n${narrative}${markdown.slice(sectionsAt)}`;
}

const VOCABULARY =
  'queue worker lambda table index shard retry timeout token cache build deploy test log trace metric alarm schema migration backup restore socket proxy header cookie session payload batch stream cursor lock lease clock drift replay hash bucket region cluster node pod image layer volume mount kernel thread heap'.split(
    ' ',
  );

/**
 * A story of its own: its narrative is words drawn from `seed`, so two seeds share almost no
 * shingles. `sentences` sets its length: a longer one keeps every spamCopy of it a near-duplicate
 * of every other (a copy changes a handful of words, the same handful whatever the length).
 */
export function storyOfItsOwn(title: string, seed: number, sentences = 6): string {
  let state = seed * 2654435761;
  const word = (): string => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return VOCABULARY[state % VOCABULARY.length] as string;
  };
  const sentence = (): string => `I ${Array.from({ length: 12 }, word).join(' ')}.`;
  return topicStory({
    title,
    tags: ['ops'],
    stack: ['linux'],
    summary: sentence(),
    extra: Array.from({ length: sentences }, sentence).join(' '),
  });
}

/**
 * The pairs of `markdowns` that are not near-duplicates of each other as the rule judges them
 * (no shared band, or under the similarity bar): a wave fixture asserts there are none, so which
 * copy lands first never decides how many land.
 */
export function pairsNotNearDuplicate(markdowns: readonly string[]): [number, number][] {
  const signatures = markdowns.map((markdown) => signatureOf(storyBody(markdown)));
  const pairs: [number, number][] = [];
  signatures.forEach((a, i) => {
    const bands = new Set(bandsOf(a));
    signatures.slice(i + 1).forEach((b, offset) => {
      const shared = bandsOf(b).some((band) => bands.has(band));
      if (!shared || estimatedSimilarity(a, b) < NEAR_DUPLICATE_SIMILARITY) pairs.push([i, i + 1 + offset]);
    });
  });
  return pairs;
}
