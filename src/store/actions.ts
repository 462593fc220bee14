// Write actions as plain data: the shape of one TransactWriteItems entry without the table name.
// Builders return these; the runner adds the table and sends them, as a single write when there
// is one action and as one transaction otherwise.
import type { TransactWriteConditionCheck, TransactWriteDelete, TransactWritePut, TransactWriteUpdate } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './keys.ts';

type WithoutTable<T> = Omit<T, 'TableName'>;

export type PutAction = { Put: WithoutTable<TransactWritePut> };
export type UpdateAction = { Update: WithoutTable<TransactWriteUpdate> };
export type DeleteAction = { Delete: WithoutTable<TransactWriteDelete> };
export type CheckAction = { ConditionCheck: WithoutTable<TransactWriteConditionCheck> };
export type WriteAction = PutAction | UpdateAction | DeleteAction | CheckAction;

export type StoredItem = Record<string, unknown> & ItemKey;

/** The key an action targets; two actions on one key would cancel the whole transaction. */
export function actionKey(action: WriteAction): ItemKey {
  if ('Put' in action) {
    const item = action.Put.Item as ItemKey;
    return { PK: item.PK, SK: item.SK };
  }
  const key = ('Update' in action ? action.Update.Key : 'Delete' in action ? action.Delete.Key : action.ConditionCheck.Key) as ItemKey;
  return { PK: key.PK, SK: key.SK };
}
