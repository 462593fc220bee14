// Announcing one story (design §4), and keeping its Bluesky side in line with it afterwards:
// while the story is listed (public and shown) it gets exactly one post at its record key;
// once it is hidden or made private that post is deleted at the key; listed again, it is
// announced again at the same key. Every step is conditioned so that two workers, a retry after
// a lost answer or a worker that died half-way never produce a second post:
//   claim     bsky_uri absent (or the recorded post, to delete it; or a stale claim), the story
//             still on the queue and still listed (to post) or not (to delete)
//   look up   after any earlier attempt, the record key is read first: a record that links this
//             story is adopted, anything else is never overwritten
//   complete  / release only while this claim id holds the marker
//   leave     the queue only while what was checked (posted and listed, or never reached and
//             not listed) still holds
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app/app-context.ts';
import { handlesFor } from '../app/accounts.ts';
import { storyPath } from '../app/content-write.ts';
import {
  claimAnnounce,
  claimDelete,
  completeAnnounce,
  completeDelete,
  giveUpAnnounce,
  leaveAnnounceQueue,
  recordPostToDelete,
  retryAnnounceLater,
  retryDeleteLater,
} from '../store/announce-items.ts';
import { PENDING } from '../store/claim-marker.ts';
import { storyKey } from '../store/keys.ts';
import { readItem } from '../store/read-items.ts';
import { writeAtomically } from '../store/run-write.ts';
import { isListedPublicly, toStoryMeta, type StoryMeta } from '../store/story-items.ts';
import { WriteCancelled } from '../store/write-cancelled.ts';
import { AnnounceFailure, type AnnouncePort, type StoryPost } from './announce-port.ts';

export interface AnnounceSettings {
  /** Story pages are `<baseUrl>/s/<slug>`: the link card's target. */
  baseUrl: string;
  /** Attempts before the state is `failed`. */
  maxAttempts: number;
  /** Backoff after the first failure; doubles each attempt, up to the cap, with jitter. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /**
   * A claim older than this belongs to a worker that died: longer than one whole attempt (every
   * call of it bounded by the request timeout). A worker whose own claim has used half of it
   * does not post any more.
   */
  staleClaimMs: number;
}

export const DEFAULT_ANNOUNCE_SETTINGS: Omit<AnnounceSettings, 'baseUrl'> = {
  maxAttempts: 8,
  backoffBaseMs: 30_000,
  backoffCapMs: 60 * 60_000,
  staleClaimMs: 5 * 60_000,
};

export interface Announcer {
  port: AnnouncePort;
  settings: AnnounceSettings;
  log(line: string): void;
}

export type AnnounceOutcome =
  /** Posted now, and recorded. */
  | 'posted'
  /** An earlier attempt's post was found at the record key, and recorded. */
  | 'adopted'
  /** This attempt failed; the story stays on the queue until `next_attempt_at`. */
  | 'retry_later'
  /** Given up: state `failed`, `last_error` says why. */
  | 'failed'
  /** Nothing to do: posted already, private, hidden or not on the queue. */
  | 'not_owed'
  /** Waiting for its retry time. */
  | 'not_due'
  /** Another worker holds a live claim. */
  | 'held_elsewhere'
  /** Our claim was taken over while we worked; the new holder settles it (it looks up first). */
  | 'lost_claim'
  /** The story is not listed any more (hidden, private): its post was deleted at the record key. */
  | 'deleted';

export interface AnnounceResult {
  slug: string;
  outcome: AnnounceOutcome;
  uri?: string;
  attempt?: number;
  next_attempt_at?: string;
  error?: string;
  /** Why the port failed, when it did (the sweeper stops on credentials and rate limits). */
  failure?: AnnounceFailure;
}

export interface AnnounceOptions {
  /** Try even before `next_attempt_at` (an operator's explicit retry). */
  ignoreSchedule?: boolean;
  /**
   * Judge due-ness (the retry time, a claim's staleness) as if it were this time (ms), e.g. an
   * operator's `npm run sweep -- --now`. What is written (claims, retry times) keeps the store's
   * clock; taking a claim over early stays safe: the record key is looked up before posting.
   */
  judgeAt?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const isPostUri = (value: string | undefined): value is string => value !== undefined && value.startsWith('at://');

/** Steps one call takes at most: e.g. post, find the story hidden meanwhile, delete, leave the queue. */
const MAX_STEPS = 4;

/**
 * Brings the Bluesky side of one story in line with the story: posts it while it is listed
 * (public and shown) and has no post, deletes its post at the record key once it is not listed
 * any more, and takes it off the queue when there is nothing left to do. Each step is one
 * claimed, fenced attempt; a step that changes something is followed by a fresh look.
 */
export async function announceStory(ctx: AppContext, announcer: Announcer, slug: string, options: AnnounceOptions = {}): Promise<AnnounceResult> {
  const results: AnnounceResult[] = [];
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const { result, again } = await reconcileOnce(ctx, announcer, slug, options);
    results.push(result);
    if (!again) break;
  }
  // Report what was done (a post, a deletion), not the bookkeeping that followed it.
  return results.findLast((result) => result.outcome !== 'not_owed') ?? (results.at(-1) as AnnounceResult);
}

interface Step {
  result: AnnounceResult;
  /** The step changed the Bluesky side: look again (the story may have changed meanwhile). */
  again: boolean;
}

const done = (result: AnnounceResult): Step => ({ result, again: false });

async function reconcileOnce(ctx: AppContext, announcer: Announcer, slug: string, options: AnnounceOptions): Promise<Step> {
  const { settings } = announcer;
  const now = ctx.store.now();
  const judgedAt = options.judgeAt ?? now;
  const stored = await readItem(ctx.store, storyKey(slug));
  if (stored === undefined) return done({ slug, outcome: 'not_owed' });
  const meta = toStoryMeta(stored);
  const posted = isPostUri(meta.bsky_uri) ? meta.bsky_uri : undefined;
  if (!meta.announce_queued) return done({ slug, outcome: 'not_owed', ...(posted === undefined ? {} : { uri: posted }) });

  const staleBefore = iso(judgedAt - settings.staleClaimMs);
  const takeover = meta.bsky_uri === PENDING;
  if (takeover && !(meta.claimed_at !== undefined && meta.claimed_at < staleBefore)) return done({ slug, outcome: 'held_elsewhere' });
  const listed = isListedPublicly(meta.visibility, meta.hidden);
  const attempts = meta.announce_attempts ?? 0;

  // Nothing to do on Bluesky: leave the queue, if that is still so when the write lands.
  if (!takeover && (listed ? posted !== undefined : posted === undefined && attempts === 0)) {
    const checked = posted === undefined ? ({ neverReached: true } as const) : { posted };
    try {
      await writeAtomically(ctx.store, [leaveAnnounceQueue(slug, checked)]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      // What was checked changed meanwhile (a claim, an unhide): look again.
      return { result: { slug, outcome: 'not_owed' }, again: true };
    }
    return done({ slug, outcome: 'not_owed', ...(posted === undefined ? {} : { uri: posted }) });
  }
  if (!takeover && !options.ignoreSchedule && meta.next_attempt_at !== undefined && meta.next_attempt_at > iso(judgedAt)) {
    return done({ slug, outcome: 'not_due', next_attempt_at: meta.next_attempt_at });
  }
  return listed
    ? announceOnce(ctx, announcer, meta, { now, takeover, staleBefore })
    : deleteOnce(ctx, announcer, meta, { now, takeover, staleBefore, posted });
}

interface Attempt {
  now: number;
  takeover: boolean;
  staleBefore: string;
}

async function announceOnce(ctx: AppContext, announcer: Announcer, meta: StoryMeta, { now, takeover, staleBefore }: Attempt): Promise<Step> {
  const { settings } = announcer;
  const slug = meta.slug;
  const post = await storyPost(ctx, meta, settings.baseUrl);
  const claimId = randomUUID();
  try {
    await writeAtomically(ctx.store, [
      claimAnnounce({ slug, claimId, claimedAt: iso(now), staleAt: iso(now + settings.staleClaimMs), takeOverBefore: takeover ? staleBefore : undefined }),
    ]);
  } catch (error) {
    if (error instanceof WriteCancelled) return done({ slug, outcome: 'held_elsewhere' });
    throw error;
  }
  // What the claim wrote (if_not_exists + 1), from what we read; a race that changes it costs at
  // most one needless look-up or one create that the record key refuses.
  const attempt = (meta.announce_attempts ?? 0) + 1;
  const settle = settleWith(ctx, announcer, slug, claimId, attempt);

  try {
    // @NOTE any earlier attempt (or a takeover) may have posted and lost the answer: look first.
    if (attempt > 1 || takeover) {
      const existing = await announcer.port.find(post);
      if (existing !== undefined) {
        if (existing.links.includes(post.url)) return await settle.complete(existing.uri, 'adopted');
        announcer.log(
          `ANNOUNCE CONFLICT ${slug}: ${existing.uri} (the record key of this story) holds a record that does not link ${post.url}. It is never overwritten; the story is marked failed.`,
        );
        return done(await settle.giveUp(`a different record already sits at ${existing.uri}, this story's record key; lorebook never overwrites it`));
      }
    }
    if (attempt > settings.maxAttempts) return done(await settle.giveUp(`gave up after ${settings.maxAttempts} attempts: ${meta.last_error ?? 'no answer'}`));
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

async function deleteOnce(ctx: AppContext, announcer: Announcer, meta: StoryMeta, attemptOf: Attempt & { posted: string | undefined }): Promise<Step> {
  const { now, takeover, staleBefore, posted } = attemptOf;
  const { settings } = announcer;
  const slug = meta.slug;
  const claimId = randomUUID();
  try {
    await writeAtomically(ctx.store, [
      claimDelete({
        slug,
        claimId,
        claimedAt: iso(now),
        staleAt: iso(now + settings.staleClaimMs),
        takeOverBefore: takeover ? staleBefore : undefined,
        posted: takeover ? undefined : posted,
      }),
    ]);
  } catch (error) {
    if (error instanceof WriteCancelled) return done({ slug, outcome: 'held_elsewhere' });
    throw error;
  }
  const attempt = (meta.announce_attempts ?? 0) + 1;
  const restore = takeover ? undefined : posted;
  try {
    // Deleting at the record key is idempotent: a post that was never made is simply not there.
    await announcer.port.remove({ slug, publishedAt: meta.published_at });
  } catch (error) {
    if (!(error instanceof AnnounceFailure)) throw error;
    const wait = Math.max(announceBackoff(settings, Math.min(attempt, settings.maxAttempts), ctx.random()), error.retryAfterMs ?? 0);
    const next = iso(ctx.store.now() + wait);
    const result: AnnounceResult = { slug, outcome: 'retry_later', attempt, next_attempt_at: next, error: error.message, failure: error };
    try {
      await writeAtomically(ctx.store, [retryDeleteLater(slug, claimId, restore, next, error.message)]);
    } catch (cancelled) {
      if (!(cancelled instanceof WriteCancelled)) throw cancelled;
      return done({ slug, outcome: 'lost_claim', attempt });
    }
    announcer.log(`announce ${slug}: deleting the post failed (${error.message}); next try at ${next}`);
    return done(result);
  }
  try {
    await writeAtomically(ctx.store, [completeDelete(slug, claimId, iso(ctx.store.now()))]);
  } catch (error) {
    if (!(error instanceof WriteCancelled)) throw error;
    return done({ slug, outcome: 'lost_claim', attempt });
  }
  announcer.log(`announce ${slug}: deleted the post at its record key${restore === undefined ? '' : ` (${restore})`}, the story is no longer listed`);
  return { result: { slug, outcome: 'deleted', attempt, ...(restore === undefined ? {} : { uri: restore }) }, again: true };
}

async function storyPost(ctx: AppContext, meta: StoryMeta, baseUrl: string): Promise<StoryPost> {
  const handles = await handlesFor(ctx, [meta.author]);
  return {
    slug: meta.slug,
    publishedAt: meta.published_at,
    title: meta.title,
    summary: meta.summary,
    authorHandle: handles.get(meta.author) ?? meta.author,
    tags: meta.tags,
    url: `${baseUrl}${storyPath(meta.slug)}`,
  };
}

/** Full jitter on the upper half: base·2^(attempt−1), capped, then between half and all of it. */
export function announceBackoff(settings: Pick<AnnounceSettings, 'backoffBaseMs' | 'backoffCapMs'>, attempt: number, random: number): number {
  const ceiling = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.ceil(ceiling / 2 + (random * ceiling) / 2);
}

function settleWith(ctx: AppContext, announcer: Announcer, slug: string, claimId: string, attempt: number) {
  /** A fenced write that finds the claim gone: another worker took over; it decides. */
  const fenced = async (write: Parameters<typeof writeAtomically>[1], result: AnnounceResult): Promise<AnnounceResult> => {
    try {
      await writeAtomically(ctx.store, write);
      return result;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      announcer.log(`announce ${slug}: our claim was taken over before we could record "${result.outcome}"${result.uri === undefined ? '' : ` (${result.uri})`}; the new holder looks the record up`);
      return { slug, outcome: 'lost_claim', attempt, ...(result.uri === undefined ? {} : { uri: result.uri }) };
    }
  };
  return {
    /** Records the post; if the story was unlisted meanwhile, records it for deletion and looks again. */
    async complete(uri: string, outcome: 'posted' | 'adopted'): Promise<Step> {
      try {
        await writeAtomically(ctx.store, [completeAnnounce(slug, claimId, uri)]);
        announcer.log(`announce ${slug}: ${outcome} ${uri} (attempt ${attempt})`);
        return done({ slug, outcome, uri, attempt });
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
      }
      const unlistedMeanwhile = await fenced([recordPostToDelete(slug, claimId, uri, new Date(ctx.store.now()).toISOString())], {
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
      const wait = Math.max(announceBackoff(announcer.settings, attempt, ctx.random()), failure.retryAfterMs ?? 0);
      const next = iso(ctx.store.now() + wait);
      const result = await fenced([retryAnnounceLater(slug, claimId, next, failure.message)], {
        slug,
        outcome: 'retry_later',
        attempt,
        next_attempt_at: next,
        error: failure.message,
        failure,
      });
      if (result.outcome === 'retry_later') announcer.log(`announce ${slug}: attempt ${attempt} failed (${failure.message}); next try at ${next}`);
      return result;
    },
    async giveUp(reason: string, failure?: AnnounceFailure): Promise<AnnounceResult> {
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
