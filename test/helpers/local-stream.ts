// Reads a table's real stream records from DynamoDB Local's own Streams API (it implements
// DescribeStream / GetShardIterator / GetRecords), so the stream handler is fed exactly what
// DynamoDB produced for a real write, not records built by hand. Raw JSON over fetch: the
// Streams client package is not a dependency, and DynamoDB Local checks only that an access key
// is present and alphanumeric, not the signature.
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

const MAX_PAGES = 1_000;

async function streams<T>(endpoint: string, operation: string, body: Record<string, unknown>): Promise<T> {
  const answer = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDBStreams_20120810.${operation}`,
      authorization: 'AWS4-HMAC-SHA256 Credential=lorebooklocal/20260101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`DynamoDB Local Streams ${operation} answered ${answer.status}: ${text}`);
  return JSON.parse(text) as T;
}

interface Shard {
  ShardId: string;
}

/** Every record on the table's stream so far, oldest first, shaped as Lambda delivers them. */
export async function readStreamRecords(endpoint: string, client: DynamoDBDocumentClient, tableName: string): Promise<DynamoDBRecord[]> {
  const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  const streamArn = table?.LatestStreamArn;
  if (streamArn === undefined) throw new Error(`table ${tableName} has no stream`);
  const { StreamDescription } = await streams<{ StreamDescription: { Shards: Shard[] } }>(endpoint, 'DescribeStream', {
    StreamArn: streamArn,
  });
  const records: DynamoDBRecord[] = [];
  for (const shard of StreamDescription.Shards) {
    let { ShardIterator: iterator } = await streams<{ ShardIterator?: string }>(endpoint, 'GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shard.ShardId,
      ShardIteratorType: 'TRIM_HORIZON',
    });
    for (let page = 0; page < MAX_PAGES && iterator !== undefined; page += 1) {
      const answer = await streams<{ Records: DynamoDBRecord[]; NextShardIterator?: string }>(endpoint, 'GetRecords', {
        ShardIterator: iterator,
        Limit: 1000,
      });
      records.push(...answer.Records.map((record) => ({ ...record, eventSourceARN: streamArn })));
      // An open shard always hands back a next iterator; an empty page means we are caught up.
      if (answer.Records.length === 0) break;
      iterator = answer.NextShardIterator;
    }
  }
  return records.sort((a, b) => compareSequence(a.dynamodb?.SequenceNumber, b.dynamodb?.SequenceNumber));
}

function compareSequence(a = '0', b = '0'): number {
  const left = BigInt(a);
  const right = BigInt(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Lambda hands a shard's records over in batches of at most `size`, in order. */
export function batchesOf<T>(records: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < records.length; start += size) batches.push(records.slice(start, start + size));
  return batches;
}
