// Primitive 2 — a count that moves only together with membership in a list on the same item.
// Read-then-increment double counts when two deliveries read before either writes; here the
// membership test is the write's own condition, so the second delivery fails instead.
// The list is a DynamoDB string set: `contains` tests it, ADD/DELETE change it by value, so no
// index has to be read first.
import type { UpdateAction } from './actions.ts';
import { and, type Condition } from './condition.ts';
import type { ItemKey } from './keys.ts';
import { updateItem } from './update-item.ts';

export interface CounterTarget {
  key: ItemKey;
  /** The set attribute holding the members, e.g. `reproducers`. */
  list: string;
  /** The map attribute holding the counts, e.g. `counts`. */
  counts: string;
  member: string;
  /** The counts map is not on the item yet: it is created as this (zeros, with the member's bucket at one). */
  initial?: Record<string, number> | undefined;
}

/** More clauses on the same item's update, with a condition of their own (a transaction holds one action per item). */
export interface AlsoChanges {
  setClauses?: readonly string[];
  removeClauses?: readonly string[];
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  condition?: Condition | undefined;
}

/**
 * Adds `member` and bumps `counts.<bucket>` by one, only if the member is not counted yet and
 * the list is below `cap` (a full list answers a clear conflict rather than an item-size error).
 */
export function countMember(target: CounterTarget, bucket: string, cap: number, also: AlsoChanges = {}): UpdateAction {
  const membership: Condition = {
    // The duplicate this prevents: a second delivery of the same first report counting twice.
    expression: 'NOT contains(#list, :member) AND (attribute_not_exists(#list) OR size(#list) < :cap)',
    values: { ':member': target.member, ':cap': cap },
  };
  const created: Condition = { expression: 'attribute_not_exists(#counts)' };
  return updateItem(
    target.key,
    {
      setClauses: [
        target.initial === undefined ? '#counts.#bucket = #counts.#bucket + :one' : '#counts = :initialCounts',
        ...(also.setClauses ?? []),
      ],
      addClauses: ['#list :memberSet'],
      removeClauses: also.removeClauses ?? [],
      names: {
        '#counts': target.counts,
        '#list': target.list,
        ...(target.initial === undefined ? { '#bucket': bucket } : {}),
        ...also.names,
      },
      values: {
        ':memberSet': new Set([target.member]),
        ...(target.initial === undefined ? { ':one': 1 } : { ':initialCounts': target.initial }),
        ...also.values,
      },
    },
    // One condition goes as it is: DynamoDB refuses redundant parentheses.
    target.initial === undefined && also.condition === undefined
      ? membership
      : and(membership, ...(target.initial === undefined ? [] : [created]), ...(also.condition === undefined ? [] : [also.condition])),
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
export function shiftCounts(key: ItemKey, counts: string, deltas: Record<string, number>, also: AlsoChanges = {}): UpdateAction {
  const names: Record<string, string> = { '#counts': counts, ...also.names };
  const values: Record<string, unknown> = { ...also.values };
  const setClauses = Object.entries(deltas).map(([bucket, delta], index) => {
    names[`#b${index}`] = bucket;
    values[`:d${index}`] = delta;
    return `#counts.#b${index} = #counts.#b${index} + :d${index}`;
  });
  return updateItem(
    key,
    { setClauses: [...setClauses, ...(also.setClauses ?? [])], removeClauses: also.removeClauses ?? [], names, values },
    also.condition,
  );
}
