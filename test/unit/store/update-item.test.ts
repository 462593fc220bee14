import { describe, expect, it } from 'vitest';
import { and, expressionFields, itemAbsent, itemExists } from '../../../src/store/condition.ts';
import { createItem } from '../../../src/store/replace-by-key.ts';
import { dedupeByKey } from '../../../src/store/run-write.ts';
import { updateItem } from '../../../src/store/update-item.ts';
import { WriteCancelled } from '../../../src/store/write-cancelled.ts';

const key = { PK: 'STORY#s', SK: 'META' };

describe('updateItem never creates a stray item', () => {
  it('an update with no condition of its own still requires the item to exist', () => {
    const { Update } = updateItem(key, { set: { title: 'T' } });
    expect(Update.ConditionExpression).toBe('attribute_exists(PK)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0');
    expect(Update.ExpressionAttributeNames).toEqual({ '#s0': 'title' });
    expect(Update.ExpressionAttributeValues).toEqual({ ':s0': 'T' });
  });

  it("an update's own condition is joined to the existence check", () => {
    const { Update } = updateItem(key, { set: { revision: 2 } }, { expression: 'revision = :base', values: { ':base': 1 } });
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (revision = :base)');
    expect(Update.ExpressionAttributeValues).toEqual({ ':s0': 2, ':base': 1 });
  });

  it('set, remove, add and delete clauses are written in one expression', () => {
    const { Update } = updateItem(key, {
      set: { a: 1 },
      remove: ['b'],
      setClauses: ['#c.#d = #c.#d + :one'],
      addClauses: ['#l :m'],
      deleteClauses: ['#k :n'],
      names: { '#c': 'counts', '#d': 'worked', '#l': 'list', '#k': 'other' },
      values: { ':one': 1, ':m': new Set(['x']), ':n': new Set(['y']) },
    });
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #c.#d = #c.#d + :one REMOVE #r0 ADD #l :m DELETE #k :n');
    expect(Update.ExpressionAttributeNames).toMatchObject({ '#r0': 'b', '#s0': 'a' });
  });

  it('an update that changes nothing is a planning bug, refused before it is sent', () => {
    expect(() => updateItem(key, {})).toThrow(/no changes/);
  });
});

describe('conditions', () => {
  it('and() parenthesises each piece and merges names and values', () => {
    const joined = and(itemExists, { expression: '#a = :a', names: { '#a': 'a' }, values: { ':a': 1 } });
    expect(joined).toEqual({ expression: '(attribute_exists(PK)) AND (#a = :a)', names: { '#a': 'a' }, values: { ':a': 1 } });
  });

  it('empty name and value maps are left out of the request (DynamoDB refuses them)', () => {
    expect(expressionFields(itemAbsent)).toEqual({ ConditionExpression: 'attribute_not_exists(PK)' });
    expect(expressionFields(undefined)).toEqual({});
  });
});

describe('a transaction never holds two actions on one item', () => {
  it('identical actions on one key are sent once', () => {
    const action = createItem({ ...key, title: 'T' });
    expect(dedupeByKey([action, structuredClone(action)])).toHaveLength(1);
  });

  it('two different actions on one key are refused as a planning bug', () => {
    expect(() => dedupeByKey([createItem({ ...key, title: 'A' }), createItem({ ...key, title: 'B' })])).toThrow(/two different actions/);
  });
});

describe('WriteCancelled reads the reasons', () => {
  const cancelled = new WriteCancelled([
    { key, code: 'ConditionalCheckFailed', item: { ...key, revision: 3 } },
    { key: { PK: 'OP#a', SK: 'op' }, code: 'TransactionConflict', item: undefined },
  ]);

  it('finds the existing item of a key whose condition failed', () => {
    expect(cancelled.conditionFailedOn(key)?.item).toMatchObject({ revision: 3 });
    expect(cancelled.conditionFailedOn({ PK: 'OP#a', SK: 'op' })).toBeUndefined();
    expect(cancelled.hasConditionFailure).toBe(true);
    expect(cancelled.onlyTransactionConflicts).toBe(false);
  });

  it('only-conflict cancellations are told apart from condition failures', () => {
    const conflicts = new WriteCancelled([{ key, code: 'TransactionConflict', item: undefined }]);
    expect(conflicts.onlyTransactionConflicts).toBe(true);
    expect(conflicts.hasConditionFailure).toBe(false);
  });
});
