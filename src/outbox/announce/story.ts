// Announcing one story (docs/design.md#write-rules), and keeping its Bluesky side in line with it afterwards:
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
// What to do is decided by nextStep (pure); the post and delete paths carry it out.
import type { AppContext } from '../../app/context/app-context.ts';
import { storyKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { leaveAnnounceQueue } from '../../store/story/announce/items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import type { AnnounceDocuments, Announcer } from './announcer.ts';
import { deleteOnce } from './delete.ts';
import { documentOnce } from './document.ts';
import { writeIfStillSo } from './fenced-write.ts';
import { nextStep } from './next-step.ts';
import { type AnnounceResult, done, type Step } from './outcome.ts';
import { postOnce } from './post.ts';

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

/**
 * Steps one call takes at most: e.g. post, write the document, find the story edited meanwhile,
 * write the document again — or post, find the story hidden meanwhile, delete, leave the queue.
 */
const MAX_STEPS = 6;

/**
 * Brings the Bluesky side of one story in line with the story: posts it while it is listed
 * (public and shown) and has no post, deletes its post at the record key once it is not listed
 * any more, and takes it off the queue when there is nothing left to do. Each step is one
 * claimed, fenced attempt; a step that changes something is followed by a fresh look.
 */
export async function announceStory(
  ctx: AppContext,
  announcer: Announcer,
  slug: string,
  options: AnnounceOptions = {},
): Promise<AnnounceResult> {
  // The announcing switch (design.md#settings), as of at most one settings cache period ago: while it is
  // off nothing reaches Bluesky from here, and the queue entry, untouched, keeps the work.
  await ctx.refreshSettings?.();
  if (!ctx.config.announcing) return { slug, outcome: 'paused' };
  const results: AnnounceResult[] = [];
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const { result, again } = await reconcileOnce(ctx, announcer, slug, options);
    results.push(result);
    if (!again) break;
  }
  // Report what was done (a post, a deletion), not the bookkeeping that followed it; a document
  // written after a post is named on the post's result.
  const acted = results.filter((result) => result.outcome !== 'not_owed');
  const main = acted.findLast((result) => result.outcome !== 'documented') ?? acted.at(-1) ?? (results.at(-1) as AnnounceResult);
  const documented = acted.findLast((result) => result.outcome === 'documented');
  return documented === undefined || documented === main ? main : { ...main, document: documented.document as string };
}

async function reconcileOnce(ctx: AppContext, announcer: Announcer, slug: string, options: AnnounceOptions): Promise<Step> {
  const now = ctx.store.now();
  const stored = await readItem(ctx.store, storyKey(slug));
  if (stored === undefined) return done({ slug, outcome: 'not_owed' });
  const meta = toStoryMeta(stored);
  const step = nextStep(meta, options.judgeAt ?? now, {
    staleClaimMs: announcer.settings.staleClaimMs,
    ignoreSchedule: options.ignoreSchedule,
    documents: announcer.documents !== undefined,
  });
  switch (step.kind) {
    case 'settled':
      return done({ slug, outcome: 'not_owed', ...(step.posted === undefined ? {} : { uri: step.posted }) });
    case 'held_elsewhere':
      return done({ slug, outcome: 'held_elsewhere' });
    case 'leave_queue': {
      // What was checked changed meanwhile (a claim, an unhide): look again.
      if (!(await writeIfStillSo(ctx.store, [leaveAnnounceQueue(slug, step.checked)])))
        return { result: { slug, outcome: 'not_owed' }, again: true };
      return done({ slug, outcome: 'not_owed', ...('posted' in step.checked ? { uri: step.checked.posted } : {}) });
    }
    case 'not_due':
      return done({ slug, outcome: 'not_due', next_attempt_at: step.nextAttemptAt });
    case 'post':
      return postOnce(ctx, announcer, meta, now, step);
    case 'delete':
      return deleteOnce(ctx, announcer, meta, now, step);
    case 'document':
      // nextStep answers `document` only when the announcer has documents.
      return documentOnce(ctx, announcer, announcer.documents as AnnounceDocuments, meta, now, step.posted);
  }
}
