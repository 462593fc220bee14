// What the Bluesky side of one story needs next, decided from its META alone (docs/design.md#write-rules). Pure:
// the caller reads the story and carries the step out; every step it carries out is conditioned
// on what was decided from here still holding when the write lands.

import { isHeld } from '../../store/story/announce/hold.ts';
import { isPostUri } from '../../store/story/announce/items.ts';
import type { AnnounceProgress } from '../../store/story/announce/progress.ts';
import { PENDING } from '../../store/story/claim-marker.ts';
import { isListedPublicly, type StoryMeta } from '../../store/story/story-items.ts';

/** What the decision reads of a story's META. */
export type AnnounceFacts = Pick<StoryMeta, 'visibility' | 'hidden' | 'revision'> & {
  announce: Pick<AnnounceProgress, 'queued' | 'bsky_uri' | 'claimed_at' | 'attempts' | 'next_attempt_at' | 'doc_revision' | 'held_until'>;
};

export interface NextStepRules {
  /** A claim made this long before `now` belongs to a worker that died: it may be taken over. */
  staleClaimMs: number;
  /** Try even before `next_attempt_at` (an operator's explicit retry). */
  ignoreSchedule?: boolean | undefined;
  /** Listed stories also get a standard.site document showing their current revision (design.md#standard-site). */
  documents?: boolean | undefined;
}

/** Where a claim starts from: nobody's, or a dead worker's (claimed before `staleBefore`, ISO). */
export interface ClaimFrom {
  takeover: boolean;
  staleBefore: string;
}

export type NextStep =
  /** Not on the queue: nothing owed. `posted` is the post, if there is one. */
  | { kind: 'settled'; posted?: string }
  /** Another worker holds a live claim: its holder settles it. */
  | { kind: 'held_elsewhere' }
  /** The Bluesky side already matches the story: leave the queue, if what was checked still holds. */
  | { kind: 'leave_queue'; checked: { posted: string; documented?: boolean } | { neverReached: true } }
  /** A failed attempt's retry time has not come, or a held announcement's release time (design.md#new-accounts). */
  | { kind: 'not_due'; nextAttemptAt: string }
  /** Listed and not posted (or a dead worker's claim to take over): claim, then post. */
  | ({ kind: 'post' } & ClaimFrom)
  /** Not listed and maybe posted: claim, then delete at the record key. `posted` is the recorded post, if any. */
  | ({ kind: 'delete'; posted: string | undefined } & ClaimFrom)
  /** Listed and posted, its document missing or at an older revision: claim from the post, then write the document. */
  | { kind: 'document'; posted: string; staleBefore: string };

/** The next step for the story's Bluesky side, judged at `now` (ms). */
export function nextStep(meta: AnnounceFacts, now: number, rules: NextStepRules): NextStep {
  const { announce } = meta;
  const posted = isPostUri(announce.bsky_uri) ? announce.bsky_uri : undefined;
  if (!announce.queued) return posted === undefined ? { kind: 'settled' } : { kind: 'settled', posted };

  const staleBefore = new Date(now - rules.staleClaimMs).toISOString();
  const takeover = announce.bsky_uri === PENDING;
  if (takeover && !(announce.claimed_at !== undefined && announce.claimed_at < staleBefore)) return { kind: 'held_elsewhere' };
  const listed = isListedPublicly(meta.visibility, meta.hidden);
  const attempts = announce.attempts ?? 0;

  const documentOwed = rules.documents === true && listed && posted !== undefined && announce.doc_revision !== meta.revision;
  if (!takeover && !documentOwed && (listed ? posted !== undefined : posted === undefined && attempts === 0)) {
    return {
      kind: 'leave_queue',
      checked: posted === undefined ? { neverReached: true } : { posted, ...(rules.documents === true ? { documented: true } : {}) },
    };
  }
  if (
    !takeover &&
    !rules.ignoreSchedule &&
    announce.next_attempt_at !== undefined &&
    announce.next_attempt_at > new Date(now).toISOString()
  ) {
    return { kind: 'not_due', nextAttemptAt: announce.next_attempt_at };
  }
  // A held story is not posted before its release, whatever the schedule says: only a release moves it.
  if (listed && posted === undefined && isHeld(announce, now)) return { kind: 'not_due', nextAttemptAt: announce.held_until };
  if (documentOwed && !takeover) return { kind: 'document', posted, staleBefore };
  return listed ? { kind: 'post', takeover, staleBefore } : { kind: 'delete', takeover, staleBefore, posted };
}
