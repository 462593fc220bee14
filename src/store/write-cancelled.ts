// What a refused write tells the use case: for each key whose condition failed, the item as it
// stands (ReturnValuesOnConditionCheckFailure: ALL_OLD), so the caller can converge or re-plan
// without guessing. SDK errors never escape the store; this is what they become.

import type { StoredItem } from './actions.ts';
import { type ItemKey, keyId } from './keys.ts';

export type CancellationCode = 'ConditionalCheckFailed' | 'TransactionConflict';

export interface CancellationReason {
  key: ItemKey;
  code: CancellationCode;
  /** The existing item, when the condition failed on an item that exists. */
  item: StoredItem | undefined;
}

/** Thrown when a conditional write or transaction is refused by a condition or a competing write. */
export class WriteCancelled extends Error {
  readonly reasons: CancellationReason[];

  constructor(reasons: CancellationReason[], options: { cause?: unknown } = {}) {
    super(`write cancelled: ${reasons.map((r) => `${r.key.PK}/${r.key.SK}=${r.code}`).join(', ')}`, options);
    this.name = 'WriteCancelled';
    this.reasons = reasons;
  }

  /** The reason for one key, if its condition failed. */
  conditionFailedOn(key: ItemKey): CancellationReason | undefined {
    const id = keyId(key);
    return this.reasons.find((r) => r.code === 'ConditionalCheckFailed' && keyId(r.key) === id);
  }

  get hasConditionFailure(): boolean {
    return this.reasons.some((r) => r.code === 'ConditionalCheckFailed');
  }

  /** Only competing transactions were in the way: re-plan after a jittered wait. */
  get onlyTransactionConflicts(): boolean {
    return this.reasons.length > 0 && this.reasons.every((r) => r.code === 'TransactionConflict');
  }
}
