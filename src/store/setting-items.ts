// The runtime settings' items (design.md#settings): one per setting changed with `npm run settings`,
// holding the value as the environment would spell it and who changed it last.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PutAction, StoredItem } from './actions.ts';
import { itemAbsent } from './condition.ts';
import { settingKey, settingsPartition } from './keys.ts';
import { replaceItem } from './replace-by-key.ts';
import { KEY } from './schema.ts';
import type { Store } from './store.ts';
import { callStore } from './store-unavailable.ts';

export interface StoredSetting {
  name: string;
  value: string;
  updated_at: string;
  /** The operator (`--actor`). */
  updated_by: string;
  op_id: string;
}

/** Far more than the settings there are: the read stays one page. */
const MAX_SETTINGS = 100;

/** The SDK input of the one read of every stored setting; pure, so the key condition is unit-tested. */
export function storedSettingsQueryParams(tableName: string): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': KEY.partition },
    ExpressionAttributeValues: { ':pk': settingsPartition },
    Limit: MAX_SETTINGS,
  };
}

/** Every stored setting, one Query. */
export async function readStoredSettings(store: Store): Promise<StoredSetting[]> {
  const output = await callStore(() => store.client.send(new QueryCommand(storedSettingsQueryParams(store.tableName))));
  return ((output.Items ?? []) as StoredItem[]).map(toStoredSetting);
}

export function toStoredSetting(item: StoredItem): StoredSetting {
  return {
    name: String(item.SK),
    value: String(item.value),
    updated_at: String(item.updated_at),
    updated_by: String(item.updated_by),
    op_id: String(item.op_id),
  };
}

/**
 * Writes a setting conditioned on the value read (absent: on no item), so two operators changing
 * it from the same read cannot both win unseen: the second re-reads and finds the first's value.
 */
export function putSetting(setting: StoredSetting, read: string | undefined): PutAction {
  const { name, ...fields } = setting;
  return replaceItem(
    { ...settingKey(name), ...fields },
    read === undefined ? itemAbsent : { expression: '#value = :read', names: { '#value': 'value' }, values: { ':read': read } },
  );
}
