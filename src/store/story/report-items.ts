// Conditions on a per-account report (REPRO#account, CHECK#account) as the plan read it. A report
// is replaced by key, but never blindly: each write names what it read, so two devices of one
// account acting on the same read cannot both move a count away from the same old result.
import { type Condition, itemAbsent } from '../condition.ts';

/** What every per-account report holds and every condition below is built from. */
export interface ReadReport {
  result: string;
  counted: boolean;
  at: string;
}

/**
 * The report still holds the result and `counted` flag the plan read. The window it closes: two
 * devices changing or withdrawing the same report from one read would both subtract from the
 * old result. `counted` is in it because the plan decided from it whether a count moves at all.
 * A report deleted in the meantime fails it too (a missing attribute equals nothing).
 */
export function stillReported(read: ReadReport): Condition {
  return {
    expression: '#result = :old AND #counted = :counted',
    names: { '#result': 'result', '#counted': 'counted' },
    values: { ':old': read.result, ':counted': read.counted },
  };
}

/**
 * The report is exactly the one read (every replace stamps a new `at`): the guard an op_id's
 * record commits with when an identical report changes nothing, so the recorded answer is never
 * one a concurrent change already made stale.
 */
export function unchangedSince(read: ReadReport): Condition {
  return { expression: '#at = :at', names: { '#at': 'at' }, values: { ':at': read.at } };
}

/** Nothing is reported: the guard an op_id's record commits with when a withdraw found nothing. */
export const nothingReported: Condition = itemAbsent;
