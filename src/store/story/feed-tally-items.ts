// The show-more / show-less tally of one story in one feed (design.md#feeds): two string sets of
// viewer DIDs, `more` and `less`, on one item keyed by the feed and the story. A viewer's vote is
// set membership: it joins one set and leaves the other in one update conditioned on not being
// in that set yet, so the same vote delivered twice, sixteen times at once or replayed changes
// the sets once. The tally is the sets' sizes.
import type { StoredItem, WriteAction } from '../actions.ts';
import { feedTallyKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export type Vote = 'more' | 'less';

export interface FeedTally {
  more: number;
  less: number;
}

export interface TallyTarget {
  feed: string;
  slug: string;
  /** The announcement post the vote was on. */
  post: string;
}

const members = (item: StoredItem | undefined, vote: Vote): ReadonlySet<string> => {
  const value = item?.[vote];
  return value instanceof Set ? (value as Set<string>) : new Set();
};

export const toFeedTally = (item: StoredItem | undefined): FeedTally => ({
  more: members(item, 'more').size,
  less: members(item, 'less').size,
});

const other = (vote: Vote): Vote => (vote === 'more' ? 'less' : 'more');

/**
 * The write that records `viewer`'s vote, from the tally item read; none when it is already
 * recorded, or when the vote's set is full (`cap` members keep the item far under 400 KB: a
 * vote past it is not counted, and says so in the answer's `full`).
 */
export function voteAction(
  read: StoredItem | undefined,
  target: TallyTarget,
  viewer: string,
  vote: Vote,
  cap: number,
): { action?: WriteAction; full?: true } {
  const key = feedTallyKey(target.feed, target.slug);
  if (read === undefined) return { action: createItem({ ...key, ...target, [vote]: new Set([viewer]) }) };
  const joined = members(read, vote);
  if (joined.has(viewer)) return {};
  if (joined.size >= cap) return { full: true };
  return {
    action: updateItem(
      key,
      {
        addClauses: ['#vote :viewerSet'],
        deleteClauses: ['#other :viewerSet'],
        names: { '#vote': vote, '#other': other(vote) },
        values: { ':viewerSet': new Set([viewer]) },
      },
      // What was read: the viewer was not in this set yet (another delivery may have added it).
      { expression: 'NOT contains(#vote, :viewer)', values: { ':viewer': viewer } },
    ),
  };
}

/** The tally of a story nobody has voted on in a feed. */
export const zeroTally: FeedTally = { more: 0, less: 0 };
