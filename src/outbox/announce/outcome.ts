// What one call of the announcer answers: the outcome, and what goes with it.
import type { AnnounceFailure } from './port.ts';

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
  | 'deleted'
  /** The story's standard.site document now shows its current revision (written, or found saying so), and recorded. */
  | 'documented'
  /** Announcing is off (LOREBOOK_ANNOUNCING): nothing was done, the story stays on the queue. */
  | 'paused';

export interface AnnounceResult {
  slug: string;
  outcome: AnnounceOutcome;
  /** The post. */
  uri?: string;
  /** The story's standard.site document, when this call wrote it or found it current (design.md#standard-site). */
  document?: string;
  attempt?: number;
  next_attempt_at?: string;
  error?: string;
  /** Why the port failed, when it did (the sweeper stops on credentials and rate limits). */
  failure?: AnnounceFailure;
}

/** One step's answer, and whether to look again. */
export interface Step {
  result: AnnounceResult;
  /** The step changed the Bluesky side: look again (the story may have changed meanwhile). */
  again: boolean;
}

export const done = (result: AnnounceResult): Step => ({ result, again: false });
