// Updates of an existing item. Every one carries attribute_exists(PK) (docs/design.md#data): an UpdateItem
// on a missing key would silently create a stray, half-formed item.
import type { UpdateAction } from './actions.ts';
import { and, type Condition, expressionFields, itemExists } from './condition.ts';
import type { ItemKey } from './keys.ts';

export interface ItemChanges {
  /** Top-level attributes to set. */
  set?: Record<string, unknown>;
  /** Top-level attributes to remove. */
  remove?: readonly string[];
  /** Extra clauses written out by the caller, e.g. `#counts.#worked = #counts.#worked + :one`. */
  setClauses?: readonly string[];
  addClauses?: readonly string[];
  deleteClauses?: readonly string[];
  /** REMOVE clauses written out by the caller, e.g. a map entry `#flaggers.#flagger`. */
  removeClauses?: readonly string[];
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export function updateItem(key: ItemKey, changes: ItemChanges, condition?: Condition): UpdateAction {
  const names: Record<string, string> = { ...changes.names };
  const values: Record<string, unknown> = { ...changes.values };
  const setParts: string[] = [];
  Object.entries(changes.set ?? {}).forEach(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    setParts.push(`#s${index} = :s${index}`);
  });
  setParts.push(...(changes.setClauses ?? []));
  const removeParts = (changes.remove ?? []).map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  removeParts.push(...(changes.removeClauses ?? []));
  const clauses = [
    setParts.length > 0 ? `SET ${setParts.join(', ')}` : '',
    removeParts.length > 0 ? `REMOVE ${removeParts.join(', ')}` : '',
    (changes.addClauses ?? []).length > 0 ? `ADD ${changes.addClauses?.join(', ')}` : '',
    (changes.deleteClauses ?? []).length > 0 ? `DELETE ${changes.deleteClauses?.join(', ')}` : '',
  ].filter((clause) => clause !== '');
  if (clauses.length === 0) throw new Error('an update with no changes');
  const guard = condition === undefined ? itemExists : and(itemExists, condition);
  const fields = expressionFields({
    expression: guard.expression,
    names: { ...names, ...guard.names },
    values: { ...values, ...guard.values },
  });
  return { Update: { Key: key, UpdateExpression: clauses.join(' '), ...fields } };
}
