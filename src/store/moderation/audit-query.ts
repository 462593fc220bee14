// One target's audit records (design.md#operators-audit), newest first: one bounded Query under its partition.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export const MAX_AUDIT_READ = 50;

export async function queryTargetAudit(store: Store, targetPk: string): Promise<Record<string, unknown>[]> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :audit)',
        ExpressionAttributeValues: { ':pk': targetPk, ':audit': 'MODLOG#' },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: MAX_AUDIT_READ,
      }),
    ),
  );
  return (output.Items ?? []).map(({ PK: _pk, SK: _sk, ...record }) => record);
}
