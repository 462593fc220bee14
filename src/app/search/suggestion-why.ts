// The words of a project description worth matching, and the one-line "why" of a suggestion:
// which of the story's stack entries, tags and words matched, and what kind of story it is.
import type { StorySummary } from '../contract/story-shapes.ts';

/** Index and query terms alike: accents folded, lowercase ("Débogage" and "debogage" match). */
export function normaliseTerm(term: string): string {
  return term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;
const MAX_CONTEXT_TERMS = 64;

// Words that say nothing about a project; a description is prose, so without these every story
// would match "the" and "with".
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can do does for from had has have how i if in into is it its just me my no not of on or our ' +
    'so that the their them then there these they this to too us was we were what when where which while who why will with ' +
    'would you your am im ive want need trying try use using used work working build building project app make made get got ' +
    'some any all also like about over after before than more most very much many one two new way ways thing things'
  ).split(' '),
);

/** The distinct words of a project description that can match a story, in order of appearance. */
export function contextTerms(context: string): string[] {
  const seen = new Set<string>();
  for (const word of context.split(WORD_SEPARATORS)) {
    const term = normaliseTerm(word);
    if (term.length < 2 || STOPWORDS.has(term) || seen.has(term)) continue;
    seen.add(term);
    if (seen.size === MAX_CONTEXT_TERMS) break;
  }
  return [...seen];
}

const termsOf = (text: string): string[] =>
  text
    .split(WORD_SEPARATORS)
    .map(normaliseTerm)
    .filter((term) => term !== '');

/** One line, for an agent deciding whether to open the story. */
export function whyItMatches(story: StorySummary, matchedTerms: readonly string[]): string {
  const matched = new Set(matchedTerms);
  const hits = (values: readonly string[]): string[] => values.filter((value) => termsOf(value).some((term) => matched.has(term)));
  const stack = hits(story.stack);
  const tags = hits(story.tags);
  const covered = new Set([...stack, ...tags].flatMap(termsOf));
  const words = [...matched].filter((term) => !covered.has(term)).slice(0, 3);

  const reasons: string[] = [];
  if (stack.length > 0) reasons.push(`stack ${stack.join(', ')}`);
  if (tags.length > 0) reasons.push(`${tags.length === 1 ? 'tag' : 'tags'} ${tags.join(', ')}`);
  if (words.length > 0) reasons.push(`${words.map((word) => `"${word}"`).join(', ')} in its ${wordsWhere(story, words)}`);
  return `Matches ${joinAnd(reasons)}; ${kindOf(story)}.`;
}

function wordsWhere(story: StorySummary, words: readonly string[]): string {
  const inTitle = termsOf(story.title).some((term) => words.includes(term));
  return inTitle ? 'title' : 'summary';
}

function kindOf(story: StorySummary): string {
  const parts: string[] = [];
  if (story.type === 'fail') {
    parts.push(story.status === 'open' ? 'a failure story still asking for help' : 'a failure story');
  } else {
    parts.push('a success story');
  }
  if (story.has_check) parts.push('with a read-only check to see if it applies to you');
  const worked = story.counts.worked;
  if (worked > 0) parts.push(`reproduced ${worked} ${worked === 1 ? 'time' : 'times'}`);
  return parts.join(', ');
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) as string}`;
}
