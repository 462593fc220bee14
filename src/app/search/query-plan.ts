// What a search_stories query may cost (docs/search.md, "What a query costs"). MiniSearch scores
// every story each word reaches: the stories holding the word, its typo matches and, for the
// last word, its prefix matches. At 100,000 stories a query of sixteen words found in nearly
// every story took 6.9 s, sixteen near-misses of such words 6.1 s and the two-letter prefix "ka"
// 8.9 s, each blocking the process for all its other requests. The plan keeps what a user asks
// for and bounds that work to about REACH_BUDGET_PASSES passes over the index:
// - a word the index holds in TYPO_SKIP_STORIES stories or more is taken as typed: its typo
//   matches are other words (and the most costly part of a common word's search); a rarer or
//   unknown word keeps its typo tolerance, at most MAX_TYPO_EDITS edits (MiniSearch's cap is six);
// - the last word expands as a prefix only from PREFIX_MIN_CHARS characters, and only while at
//   most MAX_PREFIX_TERMS index terms start with it;
// - on an index of COMMON_MIN_STORIES or more, the words are taken rarest first while the stories
//   they reach add up to at most REACH_BUDGET_PASSES × the index's size; the rest, the least
//   telling words ("the", "steps", a format's own labels), are left out of the AND. The rarest
//   word always stays.
// suggest_for_project and a publish's `similar` OR up to 64 words over the topic fields
// (planTopicQuery): a word in TYPO_SKIP_STORIES stories or more taken as typed there too, and a
// reach budget of TOPIC_REACH_BUDGET_PASSES counted in those fields. Before it, a typical
// publish's `similar` took 1.1-2.7 s at 100,000 stories and one of 64 common words 4.4-8.6 s,
// on the thread that answers every search (docs/search.md).
import MiniSearch, { type SearchOptions } from 'minisearch';
import { normaliseTerm } from './suggestion-why.ts';

/** From this many stories on the reach budget applies; a smaller index is cheap to search whole. */
export const COMMON_MIN_STORIES = 1000;
export const REACH_BUDGET_PASSES = 2;
/**
 * An OR query answers every story any of its words reaches, and MiniSearch scores and sorts them
 * all: at 100,000 stories two passes of topic words took 0.5-1.4 s, one pass 0.37-0.49 s (docs/search.md).
 */
export const TOPIC_REACH_BUDGET_PASSES = 1;
export const TYPO_SKIP_STORIES = 10;
export const PREFIX_MIN_CHARS = 3;
export const MAX_PREFIX_TERMS = 500;
export const MAX_TYPO_EDITS = 2;

/** A word of 5 characters or more may carry a typo: one edit per 5 characters, at most MAX_TYPO_EDITS. */
export const typoEdits = (word: string): number => (word.length >= 5 ? Math.min(MAX_TYPO_EDITS, Math.round(word.length * 0.2)) : 0);

/** What a plan reads of an index. */
export interface TermStats {
  /** Stories indexed. */
  readonly stories: number;
  /**
   * About how many stories a word reaches: for each index term it matches (itself, within
   * `edits` typos, and starting with it when `prefix`), the stories holding that term in its
   * busiest field (of `fields`, when given), summed. Counting stops past `cap`.
   */
  storiesReached(word: string, match: ReachMatch, cap: number): number;
  /** How many index terms start with `prefix`, counted up to `cap` + 1. */
  termsStartingWith(prefix: string, cap: number): number;
}

export interface ReachMatch {
  edits: number;
  prefix: boolean;
  /** The fields searched; every field when absent. */
  fields?: readonly string[];
}

export interface QueryPlan {
  /** The words searched, normalised, in the query's order. */
  words: string[];
  /** Left out: together with the rarer words they reached more stories than the index holds. */
  common: string[];
  /** Whether the last word searched also matches as a prefix. */
  prefixLast: boolean;
  /** The typo edits each word searched is matched with (0: as typed). */
  edits: Record<string, number>;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

export function planQuery(query: string, stats: TermStats): QueryPlan {
  const typed = [...new Set(tokenize(query).map(normaliseTerm))].filter((word) => word !== '');
  const last = typed.at(-1);
  const prefixLast =
    last !== undefined && last.length >= PREFIX_MIN_CHARS && stats.termsStartingWith(last, MAX_PREFIX_TERMS) <= MAX_PREFIX_TERMS;
  return withinReach(typed, stats, { prefixLast, typos: typoEdits, passes: REACH_BUDGET_PASSES });
}

/** The topic fields' typo rule (suggestions and `similar`): one edit from 6 characters, two from 10. */
export const topicTypoEdits = (word: string): number => (word.length >= 6 ? Math.min(MAX_TYPO_EDITS, Math.round(word.length * 0.15)) : 0);

/**
 * suggest_for_project's and `similar`'s words, ORed over `fields` with no prefix: a word in
 * TYPO_SKIP_STORIES stories or more as typed, and on a large index the rarest words while their
 * reach in those fields fits TOPIC_REACH_BUDGET_PASSES (the commonest add least to a ranking anyway).
 */
export function planTopicQuery(terms: readonly string[], stats: TermStats, fields: readonly string[]): QueryPlan {
  const typed = [...new Set(terms.map(normaliseTerm))].filter((word) => word !== '');
  return withinReach(typed, stats, { prefixLast: false, typos: topicTypoEdits, fields, passes: TOPIC_REACH_BUDGET_PASSES });
}

interface PlanRules {
  /** Whether the last word may expand as a prefix. */
  prefixLast: boolean;
  typos(word: string): number;
  fields?: readonly string[];
  /** The reach budget, in passes over the index. */
  passes: number;
}

function withinReach(typed: string[], stats: TermStats, rules: PlanRules): QueryPlan {
  const last = typed.at(-1);
  const { prefixLast, fields } = rules;
  const edits: Record<string, number> = {};
  for (const word of typed)
    edits[word] =
      stats.storiesReached(word, { edits: 0, prefix: false, fields }, TYPO_SKIP_STORIES) >= TYPO_SKIP_STORIES ? 0 : rules.typos(word);
  if (stats.stories < COMMON_MIN_STORIES) return { words: typed, common: [], prefixLast, edits };

  const budget = rules.passes * stats.stories;
  const reach = new Map(
    typed.map((word) => [
      word,
      stats.storiesReached(word, { edits: edits[word] ?? 0, prefix: prefixLast && word === last, fields }, budget),
    ]),
  );
  const kept = new Set<string>();
  let spent = 0;
  for (const word of [...typed].sort((a, b) => (reach.get(a) as number) - (reach.get(b) as number))) {
    const cost = reach.get(word) as number;
    if (kept.size > 0 && spent + cost > budget) break;
    kept.add(word);
    spent += cost;
  }
  const words = typed.filter((word) => kept.has(word));
  return {
    words,
    common: typed.filter((word) => !kept.has(word)),
    prefixLast: prefixLast && words.at(-1) === last,
    edits: Object.fromEntries(words.map((word) => [word, edits[word] ?? 0])),
  };
}

/** The MiniSearch query and options of a plan, ranked as search_stories ranks (BM25, AND, boosts). */
export function planSearchOptions(plan: QueryPlan, base: SearchOptions): { query: string; options: SearchOptions } {
  const lastIndex = plan.words.length - 1;
  return {
    query: plan.words.join(' '),
    options: {
      ...base,
      maxFuzzy: MAX_TYPO_EDITS,
      fuzzy: (term) => plan.edits[term] || false,
      prefix: (_term, index) => plan.prefixLast && index === lastIndex,
    },
  };
}
