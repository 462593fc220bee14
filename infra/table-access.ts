// Least privilege for the table: each function gets only the DynamoDB actions its code paths
// send, written out (never grantReadWriteData, which also hands out Scan, BatchWriteItem,
// DescribeTable…). Transactions have no IAM action of their own: "Permissions for Put, Update,
// Delete, and Get actions are governed by the permissions used for the underlying PutItem,
// UpdateItem, DeleteItem, and GetItem operations. For the ConditionCheck action, you can use the
// dynamodb:ConditionCheckItem permission" — Amazon DynamoDB Developer Guide, "Using IAM with
// DynamoDB transactions" (docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html).
// test/integration/handlers/table-actions.test.ts records what each handler really sends to
// DynamoDB Local and checks it against these lists.

import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

export interface TableAccess {
  /** Actions on the table itself (items by key, Query on the base table). */
  table: readonly string[];
  /** Actions on its indexes (`table/<name>/index/*`): Query only. */
  indexes: readonly string[];
}

export const TABLE_ACCESS = {
  /** Every use case: reads (Get, BatchGet, Query, TransactGet -> GetItem), the write pipeline
   * (single writes and TransactWrite -> Put/Update/Delete/ConditionCheck), lists on the GSIs. */
  http: {
    table: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    ],
    indexes: ['dynamodb:Query'],
  },
  /** Fan-out (conditional PutItem per recipient, DeleteItem to retire the event) and announce
   * attempts (GetItem of META, BatchGetItem of mentioned accounts, UpdateItem claims), which first
   * read the runtime settings (Query on the base table, once per cache period, design.md#settings). */
  stream: {
    table: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ],
    indexes: [],
  },
  /** The stream function's actions, plus Query: the outbox (base table) and the announce queue (GSI3);
   * and Scan: the capability re-scan walks every story's META, one bounded page per run. */
  sweeper: {
    table: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ],
    indexes: ['dynamodb:Query'],
  },
} as const satisfies Record<string, TableAccess>;

export function grantTableAccess(fn: IFunction, table: ITable, access: TableAccess): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: [...access.table], resources: [table.tableArn] }));
  if (access.indexes.length > 0) {
    fn.addToRolePolicy(new PolicyStatement({ actions: [...access.indexes], resources: [`${table.tableArn}/index/*`] }));
  }
}
