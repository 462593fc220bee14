// The announcer's conditioned writes, where a refused condition is an answer, not an error:
// a claim someone else holds, a queue entry that changed, or — for a write fenced by our claim
// id — a claim another worker took over (it decides; it looks the record key up first).
import type { WriteAction } from '../../store/actions.ts';
import { writeAtomically } from '../../store/run-write.ts';
import type { Store } from '../../store/store.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AnnounceResult } from './outcome.ts';

/** True when the write landed, false when a condition refused it; any other failure is thrown. */
export async function writeIfStillSo(store: Store, actions: readonly WriteAction[]): Promise<boolean> {
  try {
    await writeAtomically(store, actions);
    return true;
  } catch (error) {
    if (!(error instanceof WriteCancelled)) throw error;
    return false;
  }
}

/**
 * Records what our attempt did, fenced by our claim id: answers `result` once it is recorded, or
 * `lost_claim` (with the attempt, and the post the result names) when the claim was taken over.
 */
export async function writeFenced(store: Store, actions: readonly WriteAction[], result: AnnounceResult): Promise<AnnounceResult> {
  if (await writeIfStillSo(store, actions)) return result;
  return {
    slug: result.slug,
    outcome: 'lost_claim',
    ...(result.attempt === undefined ? {} : { attempt: result.attempt }),
    ...(result.uri === undefined ? {} : { uri: result.uri }),
  };
}
