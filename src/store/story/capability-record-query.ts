// The capability records whose sha256 starts with a given prefix (12 to 64 hex digits): one Query
// of the prefix's first 12 digits, narrowed by the rest, one bounded page. A partition holds one
// record per scanner version of each text whose hash shares those 48 bits, so a page of
// MAX_RECORDS_READ covers every version a text gets in years; a fuller one is reported truncated.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import {
  CAPABILITY_PREFIX_LENGTH,
  type CapabilityRecord,
  capabilityRecordPartition,
  toCapabilityRecord,
} from './capability-record-items.ts';

export const MAX_RECORDS_READ = 32;

export interface RecordsByPrefix {
  records: CapabilityRecord[];
  /** More records than MAX_RECORDS_READ share the prefix: the page is not all of them. */
  truncated: boolean;
}

/** `prefix` is lowercase hex, at least CAPABILITY_PREFIX_LENGTH digits (the caller checks). */
export async function capabilityRecordsByPrefix(store: Store, prefix: string): Promise<RecordsByPrefix> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': capabilityRecordPartition(prefix.slice(0, CAPABILITY_PREFIX_LENGTH)), ':prefix': prefix },
        ConsistentRead: true,
        Limit: MAX_RECORDS_READ,
      }),
    ),
  );
  return { records: (output.Items ?? []).map(toCapabilityRecord), truncated: output.LastEvaluatedKey !== undefined };
}
