// The one table schema (docs/design.md#data). The local bootstrap, the tests and the CDK stack all read
// this file, so a key or index can never differ between DynamoDB Local and AWS.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const KEY = { partition: 'PK', sort: 'SK' } as const;

/** TTL attribute (epoch seconds). DynamoDB deletes expired items days late, so reads filter too. */
export const TTL_ATTRIBUTE = 'expires_at';

/**
 * One sparse GSI per access pattern: an item appears in an index only while it carries that
 * index's key attributes. Keys-only projections; lists are hydrated with one BatchGetItem.
 */
export const INDEXES = {
  /** Public feed, FEED#<yyyy-mm> / <published_at>#<slug>, sharded by month against hot partitions. */
  feed: { name: 'GSI1', partition: 'GSI1PK', sort: 'GSI1SK' },
  /** Per-author list, AUTHOR#<account> / <published_at>#<slug>. */
  author: { name: 'GSI2', partition: 'GSI2PK', sort: 'GSI2SK' },
  /** Announce queue, ANNOUNCE / <due_at>#<slug>, present only while an announcement is owed. */
  announce: { name: 'GSI3', partition: 'GSI3PK', sort: 'GSI3SK' },
} as const;

export type IndexName = keyof typeof INDEXES;

/** Every key attribute is a string. */
export const KEY_ATTRIBUTES: readonly string[] = [
  KEY.partition,
  KEY.sort,
  ...Object.values(INDEXES).flatMap((index) => [index.partition, index.sort]),
];

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: KEY_ATTRIBUTES.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: KEY.partition, KeyType: 'HASH' },
      { AttributeName: KEY.sort, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.values(INDEXES).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partition, KeyType: 'HASH' },
        { AttributeName: index.sort, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}
