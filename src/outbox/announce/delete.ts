// The delete path: one claimed, fenced attempt to delete an unlisted story's post (and its
// standard.site document) at its record key. Deleting there is idempotent (a post that was never made is simply not there), so no
// look-up is needed; a failure gives the marker back to what it held until the retry time.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app/context/app-context.ts';
import { claimDelete, completeDelete, retryDeleteLater } from '../../store/story/announce/items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { Announcer } from './announcer.ts';
import { writeFenced, writeIfStillSo } from './fenced-write.ts';
import type { ClaimFrom } from './next-step.ts';
import { done, type Step } from './outcome.ts';
import { AnnounceFailure } from './port.ts';
import { retryTime } from './settings.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Claims the deletion (from the recorded post, or from no marker or a stale claim), deletes, and records it. */
export async function deleteOnce(
  ctx: AppContext,
  announcer: Announcer,
  meta: StoryMeta,
  now: number,
  from: ClaimFrom & { posted: string | undefined },
): Promise<Step> {
  const { takeover, staleBefore, posted } = from;
  const { settings } = announcer;
  const slug = meta.slug;
  const claimId = randomUUID();
  const claim = claimDelete({
    slug,
    claimId,
    claimedAt: iso(now),
    staleAt: iso(now + settings.staleClaimMs),
    takeOverBefore: takeover ? staleBefore : undefined,
    posted: takeover ? undefined : posted,
  });
  if (!(await writeIfStillSo(ctx.store, [claim]))) return done({ slug, outcome: 'held_elsewhere' });
  const attempt = (meta.announce.attempts ?? 0) + 1;
  const restore = takeover ? undefined : posted;
  try {
    await announcer.port.remove({ slug, publishedAt: meta.published_at });
    // The document too, at its own key (design.md#standard-site): deleting nothing there is fine as well.
    await announcer.documents?.port.remove({ slug, publishedAt: meta.published_at });
  } catch (error) {
    if (!(error instanceof AnnounceFailure)) throw error;
    const next = retryTime(settings, attempt, error, ctx.random(), ctx.store.now());
    const result = await writeFenced(ctx.store, [retryDeleteLater(slug, claimId, restore, next, error.message)], {
      slug,
      outcome: 'retry_later',
      attempt,
      next_attempt_at: next,
      error: error.message,
      failure: error,
    });
    if (result.outcome === 'retry_later')
      announcer.log(`announce ${slug}: deleting the post failed (${error.message}); next try at ${next}`);
    return done(result);
  }
  const deleted = await writeFenced(ctx.store, [completeDelete(slug, claimId, iso(ctx.store.now()))], {
    slug,
    outcome: 'deleted',
    attempt,
  });
  if (deleted.outcome === 'lost_claim') return done(deleted);
  announcer.log(
    `announce ${slug}: deleted the post at its record key${restore === undefined ? '' : ` (${restore})`}, the story is no longer listed`,
  );
  return { result: { ...deleted, ...(restore === undefined ? {} : { uri: restore }) }, again: true };
}
