// The Bluesky announce state shown on a story (docs/design.md#write-rules), derived from the fields the announcer
// writes — never a stored status, which a crash between two writes could leave stale.

import { type HoldReason, isHeld } from '../../store/story/announce/hold.ts';
import { isPostUri } from '../../store/story/announce/items.ts';
import type { AnnounceProgress } from '../../store/story/announce/progress.ts';
import { PENDING } from '../../store/story/claim-marker.ts';
import type { AnnounceState } from './get-story.contract.ts';

export function announceState(progress: Pick<AnnounceProgress, 'bsky_uri' | 'last_error' | 'queued' | 'claim_post'>): AnnounceState {
  const { bsky_uri: uri, last_error: lastError, queued } = progress;
  if (isPostUri(uri)) return { state: 'posted', uri };
  // The document step holds the marker (design.md#standard-site): the post it was claimed from is still live.
  if (uri === PENDING && isPostUri(progress.claim_post)) return { state: 'posted', uri: progress.claim_post };
  // A live claim is an attempt in flight, even when an earlier attempt left an error behind.
  const pending = queued || uri === PENDING;
  if (lastError !== undefined && !pending) return { state: 'failed', last_error: lastError };
  if (pending) return lastError === undefined ? { state: 'pending' } : { state: 'pending', last_error: lastError };
  return { state: 'off' };
}

/**
 * The state its author sees: a story whose announcement waits (design.md#new-accounts) is `held`, with the
 * reason and the time it is released at the latest; one set aside as too old (design.md#announcing-resumes) is
 * `skipped`, with the time it is owed since. Everyone else sees them `pending` and `off`.
 */
export function authorAnnounceState(progress: AnnounceProgress, now: number): AnnounceState {
  const shown = announceState(progress);
  if (shown.state === 'off' && progress.skipped_since !== undefined)
    return { state: 'skipped', reason: 'too_old', owed_since: progress.skipped_since };
  if (shown.state !== 'pending' || !isHeld(progress, now)) return shown;
  return { state: 'held', reason: progress.held_reason as HoldReason, until: progress.held_until };
}
