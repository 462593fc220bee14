// `moderate queue` (docs/moderation.md "The operator's queue"): everything waiting for a person,
// newest first — stories held for review and appeals (the review queue, design.md#operators-audit), spam waves (the
// refusal records, design.md#spam-waves) and new accounts' held announcements (design.md#new-accounts). Each source is read bounded
// by the limit, and the merge keeps the newest `limit`.
import type { ReviewEntry } from '../../store/moderation/review-queue-items.ts';
import { type HeldAnnouncement, queryHeldAnnouncements } from '../../store/story/held-announcement-query.ts';
import type { AppContext } from '../context/app-context.ts';
import { MAX_QUEUE_LIMIT, reviewQueue } from './moderation-record.ts';
import { type SpamWaveEntry, spamWaveQueue } from './spam-wave-queue.ts';

export type QueueEntry = ReviewEntry | SpamWaveEntry | HeldAnnouncement;

export async function operatorQueue(ctx: AppContext, limit: number): Promise<QueueEntry[]> {
  const bound = Math.min(Math.max(1, Math.floor(limit)), MAX_QUEUE_LIMIT);
  const [review, waves, held] = await Promise.all([
    reviewQueue(ctx, bound),
    spamWaveQueue(ctx, bound),
    queryHeldAnnouncements(ctx.store, bound),
  ]);
  return [...review, ...waves, ...held].sort((a, b) => b.at.localeCompare(a.at)).slice(0, bound);
}
