// An operator's explicit retry of failed announcements, by slug (no "retry all": every write
// names its target). The story goes back on the queue due now; the sweep that follows posts it.
import type { AppContext } from '../../app/context/app-context.ts';
import { announceState } from '../../app/queries/announce-state.ts';
import { storyKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { requeueAnnounce } from '../../store/story/announce/requeue.ts';
import { isListedPublicly, toStoryMeta } from '../../store/story/story-items.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';

export type RetryOutcome = 'requeued' | 'not_found' | 'not_failed';

export interface RetryResult {
  slug: string;
  outcome: RetryOutcome;
  /** Why it was not requeued: the story's announce state, or that it is private or hidden. */
  reason?: string;
}

export async function retryFailedAnnouncement(ctx: AppContext, slug: string): Promise<RetryResult> {
  try {
    await writeAtomically(ctx.store, [requeueAnnounce(slug, new Date(ctx.store.now()).toISOString())]);
    return { slug, outcome: 'requeued' };
  } catch (error) {
    if (!(error instanceof WriteCancelled)) throw error;
  }
  const stored = await readItem(ctx.store, storyKey(slug));
  if (stored === undefined) return { slug, outcome: 'not_found' };
  const meta = toStoryMeta(stored);
  if (!isListedPublicly(meta.visibility, meta.hidden)) return { slug, outcome: 'not_failed', reason: meta.hidden ? 'hidden' : 'private' };
  return { slug, outcome: 'not_failed', reason: `announce is ${announceState(meta.announce).state}` };
}
