// The "needs reproducers" feed (design.md#feeds): open fail stories (someone needs an answer) and
// reproducible success stories fewer than three people have reproduced, among the newest
// CANDIDATE_WINDOW listed stories with a post. So that agents following it spread over the
// candidates instead of all trying the top one, each viewer gets its own order, new every hour:
// the candidates sorted by sha256(viewer | hour | slug) — a stable permutation for one viewer
// within the hour, different between viewers and between hours, and a page-through reaches every
// candidate exactly once (the cursor pins the hour it started in). Show more / show less ranks
// first (feed-ranking.ts): the permutation orders stories within a rank group.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import type { FeedTally } from '../../store/story/feed-tally-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { rankGroup } from './feed-ranking.ts';
import { type FeedStory, feedStories } from './feed-stories.ts';

/** A story with fewer reproductions than this (worked, partial or failed) still needs reproducers. */
const FEW_REPRODUCTIONS = 3;
/** How far back the feed looks: the newest this many listed stories with a post. */
const CANDIDATE_WINDOW = 200;
/** The order changes this often for each viewer. */
export const ROTATION_SLOT_MS = 60 * 60 * 1000;

export function needsReproducers(meta: StoryMeta): boolean {
  if (meta.type === 'fail') return meta.status === 'open';
  const { worked, partial, failed } = meta.counts;
  return meta.reproducible && worked + partial + failed < FEW_REPRODUCTIONS;
}

export async function reproducerCandidates(ctx: AppContext): Promise<FeedStory[]> {
  return (await feedStories(ctx, { cursor: undefined, limit: CANDIDATE_WINDOW, maxInspected: CANDIDATE_WINDOW, keep: needsReproducers }))
    .stories;
}

/** Where a page-through of this feed is: the hour its order is from, and how many were handed out. */
const rotationCursorSchema = z.strictObject({
  slot: z.number().int().min(0),
  offset: z.number().int().min(1).max(CANDIDATE_WINDOW),
});
export type RotationCursor = z.output<typeof rotationCursorSchema>;

export const encodeRotationCursor = (cursor: RotationCursor): string => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

export function decodeRotationCursor(raw: string): RotationCursor {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    json = undefined;
  }
  const parsed = rotationCursorSchema.safeParse(json);
  if (!parsed.success) throw validationFailed('The cursor is not one this feed handed out.', { cursor: 'Start again without a cursor.' });
  return parsed.data;
}

export const rotationSlot = (nowMs: number): number => Math.floor(nowMs / ROTATION_SLOT_MS);

/** The viewer's order for this slot: rank group first, then the viewer's permutation. */
export function rotate(
  candidates: readonly FeedStory[],
  viewer: string | undefined,
  slot: number,
  tallyOf: (story: FeedStory) => FeedTally,
): FeedStory[] {
  const seed = `${viewer ?? 'anyone'}|${slot}|`;
  return candidates
    .map((story) => ({
      story,
      group: rankGroup(tallyOf(story)),
      place: createHash('sha256').update(`${seed}${story.meta.slug}`, 'utf8').digest('hex'),
    }))
    .sort((a, b) => a.group - b.group || (a.place < b.place ? -1 : a.place > b.place ? 1 : 0))
    .map(({ story }) => story);
}
