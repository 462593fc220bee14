// The search snapshot store's port (docs/design.md#search): whole objects under unique names, written
// once, read back, and the old ones removed. `npm start` keeps them in a directory
// (search-snapshots-dir.ts, LOREBOOK_SEARCH_DIR), the cloud in S3 (search-snapshots-s3.ts,
// LOREBOOK_SEARCH_BUCKET, where a lifecycle rule removes old objects instead).
import { LorebookError } from '../../domain/errors.ts';

export interface SearchSnapshots {
  /** For log lines: where the snapshots live. */
  readonly describe: string;
  put(name: string, data: Uint8Array): Promise<void>;
  /** The object's bytes, or undefined when there is none under the name. */
  get(name: string): Promise<Uint8Array | undefined>;
  /**
   * Removes the snapshots older than every name in `keep` (names sort by time), and partial
   * writes; never a newer one, which another job may be about to name. S3 leaves it to the
   * bucket's lifecycle rule.
   */
  prune(keep: readonly string[]): Promise<void>;
  /** Removes one snapshot no pointer names (a job that lost the race to move it). */
  remove(name: string): Promise<void>;
}

const RETRY_AFTER_MS = 1000;

/** A snapshot store that does not answer is the same retryable store_unavailable as DynamoDB trouble. */
export function snapshotsUnavailable(what: 'read' | 'write', cause: unknown): LorebookError {
  return new LorebookError(
    'store_unavailable',
    `The search index store could not ${what} a snapshot right now. Nothing was changed: retry the same call after retry_after_ms.`,
    { retryAfterMs: RETRY_AFTER_MS, cause },
  );
}
