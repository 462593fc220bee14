// Primitive 1 — replace keyed by something the caller already knows (slug, account, op_id).
// A second delivery lands on the same key: it either fails the creation condition or replaces
// the item with the same content. Never an append with a server-made id.
import type { CheckAction, DeleteAction, PutAction } from './actions.ts';
import { type Condition, expressionFields, itemAbsent } from './condition.ts';
import type { ItemKey } from './keys.ts';

/** Creates the item only if nothing is stored at its key (prevents a second row on redelivery). */
export function createItem(item: ItemKey & Record<string, unknown>): PutAction {
  return { Put: { Item: item, ...expressionFields(itemAbsent) } };
}

/**
 * Replaces the item at its key. `condition` names what the caller read (e.g. the old result), so
 * two devices replacing from the same read cannot both win.
 */
export function replaceItem(item: ItemKey & Record<string, unknown>, condition?: Condition): PutAction {
  return { Put: { Item: item, ...expressionFields(condition) } };
}

/** Deletes the item only while it still holds what was read; the second delete finds nothing. */
export function deleteItemIf(key: ItemKey, condition: Condition): DeleteAction {
  return { Delete: { Key: key, ...expressionFields(condition) } };
}

/** Asserts, inside a transaction, that an item still holds what the plan read (no-op writes with an op_id). */
export function checkItem(key: ItemKey, condition: Condition): CheckAction {
  return { ConditionCheck: { Key: key, ...expressionFields(condition) } as CheckAction['ConditionCheck'] };
}
