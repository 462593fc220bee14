// The spam-wave rule, stated once (design.md#spam-waves, docs/moderation.md "Spam waves"): a publish or an
// edit that leaves a story listed (public, shown) is refused with duplicate_content when its body is a
// near-duplicate of a listed story another account published within the duplicate window
// (LOREBOOK_DUPLICATE_WINDOW_HOURS), naming that story. The author's own stories never count.
// The publish reads its bands in its snapshot and claims the free ones in its own transaction
// (store/near-duplicate/band-items.ts), so of a wave published at the same instant at most one
// lands. edit_story is judged the same way, and moves its story's bands with its text. Loaded on a
// publish's first use, not at start (the http function's start bound).
import { LorebookError } from '../../domain/errors.ts';
import {
  bandsOf,
  estimatedSimilarity,
  NEAR_DUPLICATE_SIMILARITY,
  signatureFromHex,
  signatureHex,
  signatureOf,
  storyBody,
} from '../../domain/near-duplicate/near-duplicate-signature.ts';
import type { WriteAction } from '../../store/actions.ts';
import type { ItemKey } from '../../store/keys.ts';
import { type BandHolder, bandHolderOf, bandKey, claimBand, refreshBand, releaseBand } from '../../store/near-duplicate/band-items.ts';
import { type DuplicateRefusal, REFUSAL_KEPT_DAYS, recordDuplicateRefusal } from '../../store/near-duplicate/duplicate-refusal-items.ts';
import { type ItemsByKey, pick } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** The story being published, as far as the rule goes. */
export interface Publishing {
  slug: string;
  author: string;
  at: string;
  nowMs: number;
}

export interface NearDuplicateGuard {
  /** The band items to read in the publish's snapshot. */
  reads: ItemKey[];
  /** Throws duplicate_content, or answers the band claims to commit with the publish. */
  plan(read: ItemsByKey, publishing: Publishing): WriteAction[];
}

/**
 * The guard for one text. With `previous` (an edit: the story's text before it) the bands move
 * with the text in the same transaction: a band both texts have is kept with the new signature,
 * a band only the old text had is released, so an edit away from a wave leaves it. Only bands
 * the story holds with the old text's signature move (one edited meanwhile holds others).
 */
export function nearDuplicateGuard(markdown: string, windowHours: number, previous?: string): NearDuplicateGuard {
  const signature = signatureOf(storyBody(markdown));
  const bands = bandsOf(signature);
  const old = previous === undefined ? undefined : signatureOf(storyBody(previous));
  const oldHex = old === undefined ? undefined : signatureHex(old);
  const oldBands = old === undefined ? [] : bandsOf(old).filter((band) => !bands.includes(band));
  return {
    reads: [...bands, ...oldBands].map(bandKey),
    plan(read, publishing) {
      const holders = bands.map((band) => bandHolderOf(pick(read, bandKey(band)), publishing.nowMs));
      const original = closestOriginal(signature, holders, publishing);
      if (original !== undefined) throw duplicateContent(original);
      const claim = { slug: publishing.slug, author: publishing.author, signature: signatureHex(signature), published_at: publishing.at };
      const until = publishing.nowMs + windowHours * 3_600_000;
      const ownOld = (holder: BandHolder | undefined): holder is BandHolder =>
        holder !== undefined && holder.slug === publishing.slug && holder.signature === oldHex;
      const kept = bands.flatMap((band, index): WriteAction[] => {
        const holder = holders[index];
        if (holder === undefined) return [claimBand({ band, ...claim }, until, publishing.nowMs)];
        return ownOld(holder) && holder.signature !== claim.signature ? [refreshBand(holder, { band, ...claim }, until)] : [];
      });
      const released = oldBands.flatMap((band) => {
        const holder = bandHolderOf(pick(read, bandKey(band)), publishing.nowMs);
        return ownOld(holder) ? [releaseBand(holder)] : [];
      });
      return [...kept, ...released];
    },
  };
}

/** Another account's story whose signature is close enough; of several, the closest. */
function closestOriginal(signature: Uint32Array, holders: readonly (BandHolder | undefined)[], publishing: Publishing): string | undefined {
  let best: { slug: string; similarity: number } | undefined;
  for (const holder of holders) {
    if (holder === undefined || holder.author === publishing.author || holder.slug === publishing.slug) continue;
    const other = signatureFromHex(holder.signature);
    if (other === undefined) continue;
    const similarity = estimatedSimilarity(signature, other);
    if (similarity >= NEAR_DUPLICATE_SIMILARITY && (best === undefined || similarity > best.similarity))
      best = { slug: holder.slug, similarity };
  }
  return best?.slug;
}

function duplicateContent(original: string): LorebookError {
  return new LorebookError(
    'duplicate_content',
    `This story is nearly the same text as "${original}", which another account published recently, so it was not published and nothing was stored. Publish only stories you wrote about your own work; if you built on that story, say what you did differently in your own words.`,
    { details: { original } },
  );
}

/** The original a duplicate_content refusal names, or undefined for any other error. */
function refusedOriginal(error: unknown): string | undefined {
  if (!(error instanceof LorebookError) || error.code !== 'duplicate_content') return undefined;
  const original = error.details?.original;
  return typeof original === 'string' ? original : undefined;
}

/**
 * Keeps the refusal for the moderation queue (no body). A repeat of the same refusal finds its
 * record there and changes nothing; a store failure here answers store_unavailable instead of
 * duplicate_content, so the retry it asks for writes the record.
 */
async function keepRefusal(ctx: AppContext, refusal: Omit<DuplicateRefusal, 'refused_at'>): Promise<void> {
  const nowMs = ctx.store.now();
  try {
    await writeAtomically(ctx.store, [
      recordDuplicateRefusal({ ...refusal, refused_at: new Date(nowMs).toISOString() }, nowMs + REFUSAL_KEPT_DAYS * 86_400_000),
    ]);
  } catch (error) {
    if (!(error instanceof WriteCancelled)) throw error;
  }
}

/**
 * A content write's failure on its way out (publish, republish, edit): a refused near-duplicate
 * leaves a record for the moderation queue, and nothing else; the error is thrown on either way.
 */
export async function rethrowKeepingRefusal(
  ctx: AppContext,
  error: unknown,
  refusal: Omit<DuplicateRefusal, 'refused_at' | 'original'>,
): Promise<never> {
  const original = refusedOriginal(error);
  if (original !== undefined) await keepRefusal(ctx, { ...refusal, original });
  throw error;
}
