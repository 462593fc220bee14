import { describe, expect, it } from 'vitest';
import { checkItem, createItem, deleteItemIf, replaceItem } from '../../../src/store/replace-by-key.ts';

const item = { PK: 'STORY#s', SK: 'REPRO#acct-bob', result: 'worked' };
const key = { PK: 'STORY#s', SK: 'REPRO#acct-bob' };

describe('replace-by-key builders', () => {
  it('createItem puts only where nothing is stored: a redelivery fails instead of writing a second row', () => {
    expect(createItem(item)).toEqual({ Put: { Item: item, ConditionExpression: 'attribute_not_exists(PK)' } });
  });

  it('replaceItem without a condition replaces whatever is at the key', () => {
    expect(replaceItem(item)).toEqual({ Put: { Item: item } });
  });

  it('replaceItem carries the condition on what was read', () => {
    expect(replaceItem(item, { expression: 'result = :old', values: { ':old': 'failed' } })).toEqual({
      Put: { Item: item, ConditionExpression: 'result = :old', ExpressionAttributeValues: { ':old': 'failed' } },
    });
  });

  it('deleteItemIf deletes only while the item holds what was read', () => {
    expect(
      deleteItemIf(key, {
        expression: '#result = :old AND counted = :c',
        names: { '#result': 'result' },
        values: { ':old': 'worked', ':c': true },
      }),
    ).toEqual({
      Delete: {
        Key: key,
        ConditionExpression: '#result = :old AND counted = :c',
        ExpressionAttributeNames: { '#result': 'result' },
        ExpressionAttributeValues: { ':old': 'worked', ':c': true },
      },
    });
  });

  it('checkItem asserts a condition without writing, and leaves out empty maps DynamoDB would refuse', () => {
    expect(checkItem(key, { expression: 'attribute_exists(PK)', names: {}, values: {} })).toEqual({
      ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(PK)' },
    });
  });
});
