// Primitive 2 — a count that moves only together with membership in a list on the same item.
// Read-then-increment double counts when two deliveries read before either writes; here the
// membership test is the write's own condition, so the second delivery fails instead.
// The list is a DynamoDB string set: `contains` tests it, ADD/DELETE change it by value, so no
// index has to be read first.
import type { UpdateAction } from './actions.ts';
import { updateItem } from './update-item.ts';
import type { ItemKey } from './keys.ts';

export interface CounterTarget {
  key: ItemKey;
  /** The set attribute holding the members, e.g. `reproducers`. */
  list: string;
  /** The map attribute holding the counts, e.g. `counts`. */
  counts: string;
  member: string;
}

/**
 * Adds `member` and bumps `counts.<bucket>` by one, only if the member is not counted yet and
 * the list is below `cap` (a full list answers a clear conflict rather than an item-size error).
 */
export function countMember(target: CounterTarget, bucket: string, cap: number): UpdateAction {
  return updateItem(
    target.key,
    {
      setClauses: ['#counts.#bucket = #counts.#bucket + :one'],
      addClauses: ['#list :memberSet'],
      names: { '#counts': target.counts, '#bucket': bucket, '#list': target.list },
      values: { ':one': 1, ':memberSet': new Set([target.member]) },
    },
    {
      // The duplicate this prevents: a second delivery of the same first report counting twice.
      expression: 'NOT contains(#list, :member) AND (attribute_not_exists(#list) OR size(#list) < :cap)',
      values: { ':member': target.member, ':cap': cap },
    },
  );
}

/** Moves a counted member's one count from `from` to `to`; the member must still be counted. */
export function moveMemberCount(target: CounterTarget, from: string, to: string): UpdateAction {
  return updateItem(
    target.key,
    {
      setClauses: ['#counts.#from = #counts.#from - :one', '#counts.#to = #counts.#to + :one'],
      names: { '#counts': target.counts, '#from': from, '#to': to, '#list': target.list },
      values: { ':one': 1 },
    },
    { expression: 'contains(#list, :member)', values: { ':member': target.member } },
  );
}

/** Removes a member and takes back its count; a second delivery finds it gone and fails. */
export function uncountMember(target: CounterTarget, bucket: string): UpdateAction {
  return updateItem(
    target.key,
    {
      setClauses: ['#counts.#bucket = #counts.#bucket - :one'],
      deleteClauses: ['#list :memberSet'],
      names: { '#counts': target.counts, '#bucket': bucket, '#list': target.list },
      values: { ':one': 1, ':memberSet': new Set([target.member]) },
    },
    { expression: 'contains(#list, :member)', values: { ':member': target.member } },
  );
}

/**
 * Moves counts between buckets with no list: used where the per-account item written in the same
 * transaction carries the guard (a check's CHECK#account item), so the bump cannot repeat alone.
 */
export function shiftCounts(key: ItemKey, counts: string, deltas: Record<string, number>): UpdateAction {
  const names: Record<string, string> = { '#counts': counts };
  const values: Record<string, unknown> = {};
  const setClauses = Object.entries(deltas).map(([bucket, delta], index) => {
    names[`#b${index}`] = bucket;
    values[`:d${index}`] = delta;
    return `#counts.#b${index} = #counts.#b${index} + :d${index}`;
  });
  return updateItem(key, { setClauses, names, values });
}
