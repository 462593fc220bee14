import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { countRoundTrips, type RoundTripCounter } from '../helpers/round-trips.ts';
import { useTestTable } from '../helpers/test-table.ts';

describe('countRoundTrips', () => {
  const table = useTestTable('round-trips');
  let counter: RoundTripCounter;

  beforeEach(() => {
    counter?.detach();
    counter = countRoundTrips(table.client);
  });

  it('counts one put and one get through the document client as one PutItem and one GetItem', async () => {
    const Key = { PK: 'ACCOUNT#a', SK: 'META' };
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...Key, handle: 'a.test' } }));
    await table.client.send(new GetCommand({ TableName: table.tableName, Key }));
    expect(counter.snapshot()).toEqual({ PutItem: 1, GetItem: 1 });
    expect(counter.total()).toBe(2);
    expect(counter.reads()).toBe(1);
    expect(counter.writes()).toBe(1);
  });

  it('splits reads and writes by operation, and reset() starts over from zero', async () => {
    const TableName = table.tableName;
    await table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { PK: 'STORY#s', SK: 'META' } } },
          { Put: { TableName, Item: { PK: 'STORY#s', SK: 'BODY' } } },
        ],
      }),
    );
    await table.client.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [{ PK: 'STORY#s', SK: 'META' }] } } }));
    await table.client.send(
      new QueryCommand({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'STORY#s' } }),
    );
    // A base-client command on the same stack counts too.
    await table.client.send(new GetItemCommand({ TableName, Key: { PK: { S: 'STORY#s' }, SK: { S: 'META' } } }));
    expect(counter.snapshot()).toEqual({ TransactWriteItems: 1, BatchGetItem: 1, Query: 1, GetItem: 1 });
    expect(counter.reads()).toBe(3);
    expect(counter.writes()).toBe(1);

    counter.reset();
    expect(counter.snapshot()).toEqual({});
    expect(counter.total()).toBe(0);
  });

  it('detach() stops counting', async () => {
    counter.detach();
    await table.client.send(new GetCommand({ TableName: table.tableName, Key: { PK: 'ACCOUNT#a', SK: 'META' } }));
    expect(counter.total()).toBe(0);
  });
});
