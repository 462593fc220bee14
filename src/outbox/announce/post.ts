// The post path: one claimed, fenced attempt to post a listed story at its record key. After
// any earlier attempt (or when taking a dead worker's claim over) the record key is read first:
// a record that links this story is adopted, anything else is never overwritten.
import { randomUUID } from 'node:crypto';
import { handlesFor } from '../../app/account/accounts.ts';
import type { AppContext } from '../../app/context/app-context.ts';
import { countAnnounce } from '../../app/context/metrics.ts';
import { storyPath } from '../../app/story-content/content-write.ts';
import { revealForbiddenChars } from '../../domain/text-controls.ts';
import type { WriteAction } from '../../store/actions.ts';
import {
  claimAnnounce,
  completeAnnounce,
  giveUpAnnounce,
  recordPostStillOwed,
  retryAnnounceLater,
} from '../../store/story/announce/items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { Announcer } from './announcer.ts';
import { writeFenced, writeIfStillSo } from './fenced-write.ts';
import type { ClaimFrom } from './next-step.ts';
import { type AnnounceResult, done, type Step } from './outcome.ts';
import { AnnounceFailure, type StoryPost } from './port.ts';
import { retryTime } from './settings.ts';
import { storyThumb } from './thumb.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Claims the announcement (counting the attempt), then looks up, posts or gives up, and records which. */
export async function postOnce(
  ctx: AppContext,
  announcer: Announcer,
  meta: StoryMeta,
  now: number,
  { takeover, staleBefore }: ClaimFrom,
): Promise<Step> {
  const { settings } = announcer;
  const slug = meta.slug;
  const post = await storyPost(ctx, meta, settings.baseUrl, announcer.log);
  const claimId = randomUUID();
  const claim = claimAnnounce({
    slug,
    claimId,
    claimedAt: iso(now),
    staleAt: iso(now + settings.staleClaimMs),
    takeOverBefore: takeover ? staleBefore : undefined,
  });
  if (!(await writeIfStillSo(ctx.store, [claim]))) return done({ slug, outcome: 'held_elsewhere' });
  // What the claim wrote (if_not_exists + 1), from what we read; a race that changes it costs at
  // most one needless look-up or one create that the record key refuses.
  const attempt = (meta.announce.attempts ?? 0) + 1;
  const settle = settleWith(ctx, announcer, slug, claimId, attempt);
  countAnnounce(ctx, 'attempt');

  try {
    // @NOTE any earlier attempt (or a takeover) may have posted and lost the answer: look first.
    if (attempt > 1 || takeover) {
      const existing = await announcer.port.find(post);
      if (existing !== undefined) {
        if (existing.links.includes(post.url)) return await settle.complete(existing.uri, 'adopted');
        announcer.log(
          `ANNOUNCE CONFLICT ${slug}: ${existing.uri} (the record key of this story) holds a record that does not link ${post.url}. It is never overwritten; the story is marked failed.`,
        );
        return done(
          await settle.giveUp(`a different record already sits at ${existing.uri}, this story's record key; lorebook never overwrites it`),
        );
      }
    }
    if (attempt > settings.maxAttempts)
      return done(await settle.giveUp(`gave up after ${settings.maxAttempts} attempts: ${meta.announce.last_error ?? 'no answer'}`));
    // A worker paused for most of its claim (a frozen Lambda, a long GC) must not post: its
    // claim may be taken over at any moment.
    if (ctx.store.now() - now > settings.staleClaimMs / 2) {
      return done(await settle.retry(new AnnounceFailure('timeout', 'the attempt ran out of its claim time before posting')));
    }
    const { uri } = await announcer.port.create(post);
    return await settle.complete(uri, 'posted');
  } catch (error) {
    if (!(error instanceof AnnounceFailure)) throw error;
    return done(error.permanent || attempt >= settings.maxAttempts ? await settle.giveUp(error.message, error) : await settle.retry(error));
  }
}

async function storyPost(ctx: AppContext, meta: StoryMeta, baseUrl: string, log: (line: string) => void): Promise<StoryPost> {
  const handles = await handlesFor(ctx, [meta.author]);
  const thumb = await storyThumb(ctx, meta.image, baseUrl, log);
  return {
    slug: meta.slug,
    publishedAt: meta.published_at,
    // Text stored before a character was refused is posted with it made visible (design.md#untrusted-text).
    title: revealForbiddenChars(meta.title),
    summary: revealForbiddenChars(meta.summary),
    authorHandle: handles.get(meta.author) ?? meta.author,
    tags: meta.tags.map(revealForbiddenChars),
    url: `${baseUrl}${storyPath(meta.slug)}`,
    ...(thumb === undefined ? {} : { thumb }),
  };
}

/** The ways an attempt that holds the claim ends: each one recorded by a write fenced by the claim id. */
function settleWith(ctx: AppContext, announcer: Announcer, slug: string, claimId: string, attempt: number) {
  const fenced = async (write: readonly WriteAction[], result: AnnounceResult): Promise<AnnounceResult> => {
    const settled = await writeFenced(ctx.store, write, result);
    if (settled.outcome === 'lost_claim') {
      announcer.log(
        `announce ${slug}: our claim was taken over before we could record "${result.outcome}"${result.uri === undefined ? '' : ` (${result.uri})`}; the new holder looks the record up`,
      );
    }
    return settled;
  };
  return {
    /**
     * Records the post; if the story was unlisted meanwhile, records it for deletion and looks
     * again. With documents on, the post is recorded on the queue, and the document step follows.
     */
    async complete(uri: string, outcome: 'posted' | 'adopted'): Promise<Step> {
      if (announcer.documents !== undefined) {
        const recorded = await fenced([recordPostStillOwed(slug, claimId, uri, iso(ctx.store.now()))], { slug, outcome, uri, attempt });
        if (recorded.outcome !== 'lost_claim')
          announcer.log(`announce ${slug}: ${outcome} ${uri} (attempt ${attempt}); its document is next`);
        return { result: recorded, again: recorded.outcome !== 'lost_claim' };
      }
      if (await writeIfStillSo(ctx.store, [completeAnnounce(slug, claimId, uri)])) {
        announcer.log(`announce ${slug}: ${outcome} ${uri} (attempt ${attempt})`);
        return done({ slug, outcome, uri, attempt });
      }
      const unlistedMeanwhile = await fenced([recordPostStillOwed(slug, claimId, uri, iso(ctx.store.now()))], {
        slug,
        outcome,
        uri,
        attempt,
      });
      if (unlistedMeanwhile.outcome === 'lost_claim') return done(unlistedMeanwhile);
      announcer.log(`announce ${slug}: ${outcome} ${uri}, but the story was hidden or made private meanwhile: the post is deleted next`);
      return { result: unlistedMeanwhile, again: true };
    },
    async retry(failure: AnnounceFailure): Promise<AnnounceResult> {
      countAnnounce(ctx, 'failure');
      const next = retryTime(announcer.settings, attempt, failure, ctx.random(), ctx.store.now());
      const result = await fenced([retryAnnounceLater(slug, claimId, next, failure.message)], {
        slug,
        outcome: 'retry_later',
        attempt,
        next_attempt_at: next,
        error: failure.message,
        failure,
      });
      if (result.outcome === 'retry_later')
        announcer.log(`announce ${slug}: attempt ${attempt} failed (${failure.message}); next try at ${next}`);
      return result;
    },
    async giveUp(reason: string, failure?: AnnounceFailure): Promise<AnnounceResult> {
      countAnnounce(ctx, 'failure');
      const result = await fenced([giveUpAnnounce(slug, claimId, reason)], {
        slug,
        outcome: 'failed',
        attempt,
        error: reason,
        ...(failure === undefined ? {} : { failure }),
      });
      if (result.outcome === 'failed') announcer.log(`announce ${slug}: FAILED after attempt ${attempt}: ${reason}`);
      return result;
    },
  };
}
