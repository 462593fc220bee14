// The Bluesky announce state shown on a story (design §4), derived from the fields the announcer
// writes — never a stored status, which a crash between two writes could leave stale.
import { isPostUri } from '../../store/announce-items.ts';
import type { AnnounceProgress } from '../../store/announce-progress.ts';
import { PENDING } from '../../store/claim-marker.ts';

export type AnnounceStateName = 'posted' | 'pending' | 'failed' | 'off';

export interface AnnounceState {
  state: AnnounceStateName;
  /** The post, once posted. */
  uri?: string;
  /** Why the last attempt failed: on a failed announcement, and on a pending retry. */
  last_error?: string;
}

export function announceState(progress: Pick<AnnounceProgress, 'bsky_uri' | 'last_error' | 'queued'>): AnnounceState {
  const { bsky_uri: uri, last_error: lastError, queued } = progress;
  if (isPostUri(uri)) return { state: 'posted', uri };
  // A live claim is an attempt in flight, even when an earlier attempt left an error behind.
  const pending = queued || uri === PENDING;
  if (lastError !== undefined && !pending) return { state: 'failed', last_error: lastError };
  if (pending) return lastError === undefined ? { state: 'pending' } : { state: 'pending', last_error: lastError };
  return { state: 'off' };
}
