// search_stories' query plan (src/app/search/query-plan.ts) on a real index: what it leaves out,
// when the last word expands as a prefix, and the two counts it reads from MiniSearch's private
// term tree (this test fails first if a MiniSearch upgrade changes that tree's shape).
import { describe, expect, it } from 'vitest';
import {
  COMMON_MIN_STORIES,
  MAX_PREFIX_TERMS,
  PREFIX_MIN_CHARS,
  planQuery,
  planSearchOptions,
  planTopicQuery,
  type TermStats,
  TOPIC_REACH_BUDGET_PASSES,
  topicTypoEdits,
  typoEdits,
} from '../../../../src/app/search/query-plan.ts';
import { hasWords, rankForQuery, rankForTopics, SEARCH_OPTIONS } from '../../../../src/app/search/search-ranking.ts';
import { createStoryIndex, type StoryIndex } from '../../../../src/app/search/story-index.ts';
import { TOPIC_FIELDS } from '../../../../src/app/search/topic-fields.ts';

/**
 * `count` stories: every one says "lambda", every third "throttle", story 7 alone "quokka"; with
 * `dockerInBodies`, every body says "docker" and only story 3's title does.
 */
function corpus(count: number, options: { typoOfLambdaAt?: number; dockerInBodies?: boolean } = {}): StoryIndex {
  const index = createStoryIndex();
  for (let n = 0; n < count; n += 1) {
    const first = n === options.typoOfLambdaAt ? 'lambdo' : 'lambda';
    const words = [first, n % 3 === 0 ? 'throttle' : 'retries', n === 7 ? 'quokka' : 'wombat', `term${n}x`];
    index.put({
      slug: `s${n}`,
      title: [...words, ...(options.dockerInBodies === true && n === 3 ? ['docker'] : [])].join(' '),
      summary: '',
      tags: [],
      stack: [],
      markdown: options.dockerInBodies === true ? 'we ran docker' : '',
      type: 'success',
      published_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    });
  }
  return index;
}

const large = corpus(COMMON_MIN_STORIES);
/** The corpus's words held by one story each. */
const vocabulary = Array.from({ length: COMMON_MIN_STORIES }, (_, n) => `term${n}x`);

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}
/** Stand-in counts (named as such): the plan's boundaries without an index built to the exact number. */
const counts = (stories: number, reached: (word: string) => number, prefixTerms = 0): TermStats => ({
  stories,
  storiesReached: (word) => reached(word),
  termsStartingWith: () => prefixTerms,
});
const small = corpus(30);

describe('the counts read from the index', () => {
  const exact = { edits: 0, prefix: false };
  it('the stories a word reaches: its own, its typo matches, its prefix matches; counting stops past the cap', () => {
    expect(large.stats.stories).toBe(COMMON_MIN_STORIES);
    expect(large.stats.storiesReached('lambda', exact, 10_000)).toBe(COMMON_MIN_STORIES);
    expect(large.stats.storiesReached('throttle', exact, 10_000)).toBe(Math.ceil(COMMON_MIN_STORIES / 3));
    expect(large.stats.storiesReached('quokka', exact, 10_000)).toBe(1);
    expect(large.stats.storiesReached('absent', exact, 10_000)).toBe(0);
    // Not a word of the index, one edit from "lambda".
    expect(large.stats.storiesReached('lambada', { edits: 1, prefix: false }, 10_000)).toBe(COMMON_MIN_STORIES);
    // term1x, term10x…term19x, term100x…term199x: one story each.
    expect(large.stats.storiesReached('term1', { edits: 0, prefix: true }, 10_000)).toBe(111);
    expect(large.stats.storiesReached('term1', { edits: 0, prefix: true }, 50)).toBe(51);
    expect(large.stats.storiesReached('term1', { edits: 0, prefix: false }, 10_000)).toBe(0);
    // A term matched both ways counts once: term5x is within one edit of "term5" and starts with it.
    expect(large.stats.storiesReached('term5', { edits: 1, prefix: true }, 10_000)).toBe(111);
    expect(large.stats.storiesReached('term5x', { edits: 1, prefix: false }, 10_000)).toBe(
      vocabulary.filter((term) => editDistance(term, 'term5x') <= 1).length,
    );
    expect(large.stats.termsStartingWith('term1', 5)).toBe(6);
    expect(large.stats.termsStartingWith('term99', 1000)).toBe(11);
  });
});

describe('the plan', () => {
  it('on a large index the words are taken rarest first while the stories they reach fit in two passes over it; the rarest always stays; on a small index all stay', () => {
    // 334 + 999 stories fit in 2,000; with lambda's 1,000 they would not.
    expect(planQuery('lambda wombat throttle', large.stats)).toMatchObject({ words: ['wombat', 'throttle'], common: ['lambda'] });
    expect(planQuery('throttle retries lambda', large.stats)).toMatchObject({ words: ['throttle', 'retries', 'lambda'], common: [] });
    // A near-miss of a word in every story reaches them all as well.
    expect(planQuery('lambada wombat retries', large.stats)).toMatchObject({ words: ['wombat', 'retries'], common: ['lambada'] });
    expect(planQuery('lambda', large.stats)).toMatchObject({ words: ['lambda'], common: [] });
    expect(planQuery('lambda wombat throttle', small.stats)).toMatchObject({ words: ['lambda', 'wombat', 'throttle'], common: [] });
  });

  it('a word the index holds in 10 stories or more is matched as typed; a rarer or unknown one keeps its typo tolerance', () => {
    expect(planQuery('lambda lambada quokka', small.stats).edits).toEqual({ lambda: 0, lambada: 1, quokka: 1 });
  });

  it(`the last word expands as a prefix from ${PREFIX_MIN_CHARS} characters, and only while at most ${MAX_PREFIX_TERMS} terms start with it`, () => {
    expect(planQuery('quok', large.stats).prefixLast).toBe(true);
    expect(planQuery('qu', large.stats).prefixLast).toBe(false);
    // "term" starts 1,000 terms here.
    expect(planQuery('term', large.stats).prefixLast).toBe(false);
    expect(planQuery('term99', large.stats).prefixLast).toBe(true);
    // The last word typed was left out as common: no other word becomes the prefix.
    expect(planQuery('quokka wombat lambda retries', large.stats)).toMatchObject({
      words: ['quokka', 'wombat', 'retries'],
      prefixLast: true,
    });
    expect(planQuery('quokka wombat retries lambda', large.stats)).toMatchObject({
      words: ['quokka', 'wombat', 'retries'],
      prefixLast: false,
    });
  });

  it('the boundaries: a prefix from exactly 3 letters and up to exactly 500 terms; typos from exactly 5 letters; "as typed" from exactly 10 stories', () => {
    expect(
      planQuery(
        'quo',
        counts(10, () => 0, MAX_PREFIX_TERMS),
      ).prefixLast,
    ).toBe(true);
    expect(
      planQuery(
        'quo',
        counts(10, () => 0, MAX_PREFIX_TERMS + 1),
      ).prefixLast,
    ).toBe(false);
    expect(typoEdits('retry')).toBe(1);
    expect(
      planQuery(
        'retry',
        counts(10, () => 9),
      ).edits,
    ).toEqual({ retry: 1 });
    expect(
      planQuery(
        'retry',
        counts(10, () => 10),
      ).edits,
    ).toEqual({ retry: 0 });
    expect(
      planQuery(
        '',
        counts(10, () => 0),
      ),
    ).toEqual({ words: [], common: [], prefixLast: false, edits: {} });
  });

  it('the rarest word stays even when it alone reaches more than the budget; only the last word counts its prefix matches', () => {
    expect(
      planQuery(
        'alpha beta',
        counts(COMMON_MIN_STORIES, (word) => (word === 'alpha' ? 5000 : 9000)),
      ),
    ).toMatchObject({
      words: ['alpha'],
      common: ['beta'],
    });
    const asked: string[] = [];
    const recording: TermStats = {
      stories: COMMON_MIN_STORIES,
      storiesReached: (word, match) => {
        asked.push(`${word} edits=${match.edits} prefix=${match.prefix}`);
        return 1;
      },
      termsStartingWith: () => 0,
    };
    planQuery('alpha betas', recording);
    expect(asked.filter((line) => !line.includes('edits=0 prefix=false') || line.startsWith('alpha'))).toEqual([
      'alpha edits=0 prefix=false',
      'alpha edits=1 prefix=false',
      'betas edits=1 prefix=true',
    ]);
  });

  it('typos are at most two edits, whatever the word length', () => {
    const stats: TermStats = { stories: 1, storiesReached: () => 0, termsStartingWith: () => 0 };
    const { options } = planSearchOptions(planQuery('x', stats), SEARCH_OPTIONS);
    expect(options.maxFuzzy).toBe(2);
    expect(['dyno', 'dynamo', 'dynamodbs', 'idempotently'].map((word) => typoEdits(word))).toEqual([0, 1, 2, 2]);
  });
});

describe('search_stories ranking through the plan', () => {
  it('answers what the whole query would, where the left-out word is in every story', () => {
    const slugs = (ranked: { slug: string }[]) => ranked.map((result) => result.slug).sort();
    const whole = large.search('lambda throttle', { ...SEARCH_OPTIONS, prefix: false });
    expect(slugs(rankForQuery(large, 'lambda throttle'))).toEqual(slugs(whole));
    expect(slugs(rankForQuery(large, 'quokka'))).toEqual(['s7']);
    expect(slugs(rankForQuery(large, 'quok'))).toEqual(['s7']);
    // A rare word with a typo is found; a word before the last is no prefix.
    expect(slugs(rankForQuery(large, 'quokke'))).toEqual(['s7']);
    expect(slugs(rankForQuery(large, 'quok lambda'))).toEqual([]);
  });

  it('a word held by 10 stories or more does not also match its typo-neighbours', () => {
    const withTypo = corpus(COMMON_MIN_STORIES, { typoOfLambdaAt: 8 });
    expect(rankForQuery(withTypo, 'lambda quokka').map((result) => result.slug)).toEqual(['s7']);
    expect(rankForQuery(withTypo, 'wombat lambda').map((result) => result.slug)).not.toContain('s8');
    expect(rankForQuery(withTypo, 'wombat lambdo').map((result) => result.slug)).toContain('s8');
  });
});

describe("suggest_for_project's and similar's plan: OR over the topic fields", () => {
  it('on a large index the words are taken rarest first while the stories they reach fit in one pass over it; an OR query then scores only those stories', () => {
    expect(TOPIC_REACH_BUDGET_PASSES).toBe(1);
    // 1 + 334 stories fit in 1,000; with lambda's 1,000 they would not (two passes would hold all three).
    expect(planTopicQuery(['quokka', 'throttle', 'lambda'], large.stats, TOPIC_FIELDS)).toMatchObject({
      words: ['quokka', 'throttle'],
      common: ['lambda'],
      prefixLast: false,
    });
    const scored = rankForTopics(large, ['quokka', 'throttle', 'lambda']).map((result) => result.slug);
    // Every story says lambda: unplanned, the OR would score all 1,000.
    expect(scored).toHaveLength(Math.ceil(COMMON_MIN_STORIES / 3) + 1);
    expect(scored[0]).toBe('s7');
    expect(planTopicQuery(['quokka', 'throttle', 'lambda'], small.stats, TOPIC_FIELDS).common).toEqual([]);
  });

  it('the budget is exactly one pass: words reaching the index once between them all stay, one story more leaves the commonest out', () => {
    const halves = (second: number) => counts(COMMON_MIN_STORIES, (word) => (word === 'alpha' ? COMMON_MIN_STORIES / 2 : second));
    expect(planTopicQuery(['alpha', 'beta'], halves(COMMON_MIN_STORIES / 2), TOPIC_FIELDS).common).toEqual([]);
    expect(planTopicQuery(['alpha', 'beta'], halves(COMMON_MIN_STORIES / 2 + 1), TOPIC_FIELDS).common).toEqual(['beta']);
  });

  it('reach is counted in the topic fields: a word in every body but one title is rare to a topic query', () => {
    const bodies = corpus(COMMON_MIN_STORIES, { dockerInBodies: true });
    const exact = { edits: 0, prefix: false };
    expect(bodies.stats.storiesReached('docker', exact, 10_000)).toBe(COMMON_MIN_STORIES);
    expect(bodies.stats.storiesReached('docker', { ...exact, fields: TOPIC_FIELDS }, 10_000)).toBe(1);
    expect(planTopicQuery(['docker', 'throttle', 'wombat'], bodies.stats, TOPIC_FIELDS)).toMatchObject({
      words: ['docker', 'throttle'],
      common: ['wombat'],
    });
    expect(rankForTopics(bodies, ['docker', 'quokka']).map((result) => result.slug)).toEqual(expect.arrayContaining(['s3', 's7']));
  });

  it('a word the topic fields hold in 10 stories or more is matched as typed; a rarer one keeps its typos, one edit from 6 letters, two from 10', () => {
    expect(planTopicQuery(['lambda', 'lambada', 'quokka'], small.stats, TOPIC_FIELDS).edits).toEqual({ lambda: 0, lambada: 1, quokka: 1 });
    expect(['lambd', 'dynamo', 'dynamodbs', 'idempotent', 'idempotently'].map((word) => topicTypoEdits(word))).toEqual([0, 1, 1, 2, 2]);
    // A small index: no word is left out, so only the typo rule keeps s8's "lambdo" out.
    const withTypo = corpus(30, { typoOfLambdaAt: 8 });
    expect(rankForTopics(withTypo, ['lambda', 'quokka']).map((result) => result.slug)).not.toContain('s8');
    // The rare word keeps its typos: it finds the common one's stories as well.
    expect(rankForTopics(withTypo, ['lambdo']).map((result) => result.slug)).toHaveLength(30);
  });

  it('no word expands as a prefix, and a word that normalises to nothing is dropped', () => {
    expect(planTopicQuery(['', 'quokka'], small.stats, TOPIC_FIELDS)).toMatchObject({ words: ['quokka'], prefixLast: false });
    expect(rankForTopics(large, ['quok']).map((result) => result.slug)).toEqual([]);
    expect(rankForTopics(large, ['quokka']).map((result) => result.slug)).toEqual(['s7']);
  });
});

describe('what counts as words', () => {
  it('a query of letters or digits ranks; one of punctuation alone lists the newest', () => {
    expect([hasWords('2026'), hasWords('kafka'), hasWords('—?!')]).toEqual([true, true, false]);
  });
});
