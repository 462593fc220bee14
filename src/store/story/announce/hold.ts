// A held announcement (docs/design.md#new-accounts): a new account's story stays on the announce queue, due
// when the account stops being new, and may not be claimed for a post before then. Released
// early by an established account's reproduction or check, or by an operator: the hold's fields
// go and the queue entry is due at once. A release is conditioned on the hold as read, so of two
// releases at once one moves the story and the other re-reads and finds nothing held.
import { and, type Condition } from '../../condition.ts';
import { announcePartition, listSortKey } from '../../keys.ts';
import { INDEXES } from '../../schema.ts';
import { announceQueueFields } from '../story-items.ts';
import type { AnnounceProgress } from './progress.ts';

export const HOLD_REASONS = ['new_account'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** META fields of a first publish held until `until` (ISO): the queue entry is due then. */
export function heldAnnouncementFields(slug: string, until: string, reason: HoldReason): Record<string, string> {
  return { ...announceQueueFields(slug, until), held_until: until, held_reason: reason };
}

/** Whether the story's announcement waits at `now` (ms). */
export function isHeld(progress: Pick<AnnounceProgress, 'held_until'>, now: number): progress is { held_until: string } {
  return progress.held_until !== undefined && progress.held_until > new Date(now).toISOString();
}

/** A claim for a post, made at `claimedAt` (ISO), requires no hold still running. */
export const notHeldAt = (claimedAt: string): Condition => ({
  expression: 'attribute_not_exists(#heldUntil) OR #heldUntil <= :claimedAt',
  names: { '#heldUntil': 'held_until' },
  values: { ':claimedAt': claimedAt },
});

/** The clauses that release a hold read as `heldUntil`, written into the update of the META item. */
export interface HoldRelease {
  setClauses: string[];
  removeClauses: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
  condition: Condition;
}

/** Releases the hold at `at` (ISO): the fields go, and a queued story is due at once. */
export function releaseHold(meta: { slug: string; announce: Pick<AnnounceProgress, 'held_until' | 'queued'> }, at: string): HoldRelease {
  const still: Condition = {
    expression: '#heldUntil = :heldRead',
    names: { '#heldUntil': 'held_until' },
    values: { ':heldRead': meta.announce.held_until },
  };
  const queued: Condition = {
    expression: '#queue = :announcePartition',
    names: { '#queue': INDEXES.announce.partition },
    values: { ':announcePartition': announcePartition },
  };
  return {
    setClauses: meta.announce.queued ? ['#queueSort = :releasedSort'] : [],
    removeClauses: ['#heldUntil', '#heldReason'],
    names: {
      '#heldUntil': 'held_until',
      '#heldReason': 'held_reason',
      ...(meta.announce.queued ? { '#queueSort': INDEXES.announce.sort } : {}),
    },
    values: meta.announce.queued ? { ':releasedSort': listSortKey(at, meta.slug) } : {},
    condition: meta.announce.queued ? and(still, queued) : still,
  };
}
