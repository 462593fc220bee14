// One attempt to announce one story (design §4): claim, post at the story's record key, record
// the post — or give the claim back with the attempt counted and the next try scheduled. Every
// step is conditioned so that two workers, a retry after a lost answer or a worker that died
// half-way can never produce a second post:
//   claim     bsky_uri absent (or a stale claim), story still on the queue
//   look up   after any earlier attempt, the record key is read first: a record that links this
//             story is adopted, anything else is never overwritten
//   complete  / release only while this claim id holds the marker
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app/app-context.ts';
import { handlesFor } from '../app/accounts.ts';
import { storyPath } from '../app/content-write.ts';
import { claimAnnounce, completeAnnounce, giveUpAnnounce, retryAnnounceLater } from '../store/announce-items.ts';
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
  | 'lost_claim';

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
}

const iso = (ms: number): string => new Date(ms).toISOString();
const isPostUri = (value: string | undefined): value is string => value !== undefined && value.startsWith('at://');

export async function announceStory(ctx: AppContext, announcer: Announcer, slug: string, options: AnnounceOptions = {}): Promise<AnnounceResult> {
  const { settings } = announcer;
  const now = ctx.store.now();
  const stored = await readItem(ctx.store, storyKey(slug));
  const meta = stored === undefined ? undefined : toStoryMeta(stored);
  if (meta === undefined || isPostUri(meta.bsky_uri) || !meta.announce_queued || !isListedPublicly(meta.visibility, meta.hidden)) {
    return { slug, outcome: 'not_owed', ...(isPostUri(meta?.bsky_uri) ? { uri: meta.bsky_uri } : {}) };
  }
  const staleBefore = iso(now - settings.staleClaimMs);
  const takeover = meta.bsky_uri === PENDING;
  if (takeover && !(meta.claimed_at !== undefined && meta.claimed_at < staleBefore)) return { slug, outcome: 'held_elsewhere' };
  if (!takeover && !options.ignoreSchedule && meta.next_attempt_at !== undefined && meta.next_attempt_at > iso(now)) {
    return { slug, outcome: 'not_due', next_attempt_at: meta.next_attempt_at };
  }

  const post = await storyPost(ctx, meta, settings.baseUrl);
  const claimId = randomUUID();
  try {
    await writeAtomically(ctx.store, [
      claimAnnounce({ slug, claimId, claimedAt: iso(now), staleAt: iso(now + settings.staleClaimMs), takeOverBefore: takeover ? staleBefore : undefined }),
    ]);
  } catch (error) {
    if (error instanceof WriteCancelled) return { slug, outcome: 'held_elsewhere' };
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
        return await settle.giveUp(`a different record already sits at ${existing.uri}, this story's record key; lorebook never overwrites it`);
      }
    }
    if (attempt > settings.maxAttempts) return await settle.giveUp(`gave up after ${settings.maxAttempts} attempts: ${meta.last_error ?? 'no answer'}`);
    // A worker paused for most of its claim (a frozen Lambda, a long GC) must not post: its
    // claim may be taken over at any moment.
    if (ctx.store.now() - now > settings.staleClaimMs / 2) {
      return await settle.retry(new AnnounceFailure('timeout', 'the attempt ran out of its claim time before posting'));
    }
    const { uri } = await announcer.port.create(post);
    return await settle.complete(uri, 'posted');
  } catch (error) {
    if (!(error instanceof AnnounceFailure)) throw error;
    return error.permanent || attempt >= settings.maxAttempts ? await settle.giveUp(error.message, error) : await settle.retry(error);
  }
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
    async complete(uri: string, outcome: 'posted' | 'adopted'): Promise<AnnounceResult> {
      const result = await fenced([completeAnnounce(slug, claimId, uri)], { slug, outcome, uri, attempt });
      if (result.outcome === outcome) announcer.log(`announce ${slug}: ${outcome} ${uri} (attempt ${attempt})`);
      return result;
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
