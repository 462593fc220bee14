// How show-more / show-less moves stories (design.md#feeds): a story's score is the number of viewers
// who asked for more of it in that feed minus those who asked for less. A page puts stories with
// a positive score first and those with a negative one last, keeping the feed's own order within
// each group — so a chronological feed stays chronological among equals, and a viewer who asks
// for less never makes a story vanish for everyone.
import type { FeedTally } from '../../store/story/feed-tally-items.ts';

const scoreOf = (tally: FeedTally): number => tally.more - tally.less;

/** 0 for a positive score, 1 for none, 2 for a negative one. */
export const rankGroup = (tally: FeedTally): number => Math.sign(-scoreOf(tally)) + 1;

export function rankByTally<T>(items: readonly T[], tallyOf: (item: T) => FeedTally): T[] {
  return items
    .map((item, index) => ({ item, index, group: rankGroup(tallyOf(item)) }))
    .sort((a, b) => a.group - b.group || a.index - b.index)
    .map(({ item }) => item);
}
