// The one-time backfill of the account index items (./account-index-items.ts, design.md#account-deletion): items
// written before those existed (a report on a story, a web session, an image record) are found by
// a Scan, a bounded page at a time, and each gets the index item it would have been written with.
// Each index item is written in a transaction with a check that what it points to is still there
// and that the account is not deleted, so a report withdrawn or an account deleted meanwhile gets
// no pointer left behind.
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CheckAction, PutAction, StoredItem } from '../../actions.ts';
import { itemExists } from '../../condition.ts';
import { accountKey, type ItemKey } from '../../keys.ts';
import { checkItem } from '../../replace-by-key.ts';
import { KEY } from '../../schema.ts';
import type { Store } from '../../store.ts';
import { callStore } from '../../store-unavailable.ts';
import { imageIndexItem, noteReportOn, webSessionIndexItem } from './index-items.ts';

export type ScanKey = Record<string, unknown>;

/** The SDK input of one Scan page of the items that may lack an index item; pure. */
export function indexBackfillScanParams(tableName: string, limit: number, startKey?: ScanKey): ScanCommandInput {
  return {
    TableName: tableName,
    // @NOTE Limit counts the items read before the filter: a page costs at most `limit` items however few match.
    Limit: limit,
    FilterExpression:
      'begins_with(#sk, :repro) OR begins_with(#sk, :check) OR begins_with(#sk, :drift) OR (#sk = :meta AND (begins_with(#pk, :websess) OR begins_with(#pk, :image)))',
    ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
    ExpressionAttributeValues: {
      ':repro': 'REPRO#',
      ':check': 'CHECK#',
      ':drift': 'DRIFT#',
      ':meta': 'META',
      ':websess': 'WEBSESS#',
      ':image': 'IMAGE#',
    },
    ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
  };
}

export interface ScanPage {
  items: StoredItem[];
  /** Where the next page starts; absent after the last page. */
  next?: ScanKey;
}

export async function indexBackfillScanPage(store: Store, limit: number, startKey?: ScanKey): Promise<ScanPage> {
  const output = await callStore(() => store.client.send(new ScanCommand(indexBackfillScanParams(store.tableName, limit, startKey))));
  return {
    items: (output.Items ?? []) as StoredItem[],
    ...(output.LastEvaluatedKey === undefined ? {} : { next: output.LastEvaluatedKey }),
  };
}

/** The index item one found item should have, with the checks its write commits with. */
export interface MissingIndex {
  account: string;
  index: PutAction;
  checks: CheckAction[];
}

/**
 * Not deleted (a missing account item passes: accounts from before account items). A deletion under
 * way still gets it: its steps find it.
 */
const accountNotDeleted = (account: string): CheckAction =>
  checkItem(accountKey(account), { expression: 'attribute_not_exists(#deleted)', names: { '#deleted': 'deleted_at' } });

/** What index item a scanned item needs, if any (the Scan's filter lets through only these kinds). */
export function missingIndexFor(item: StoredItem): MissingIndex | undefined {
  const key: ItemKey = { PK: item.PK, SK: item.SK };
  const withChecks = (account: string, index: PutAction, pointed: CheckAction): MissingIndex => ({
    account,
    index,
    checks: [pointed, accountNotDeleted(account)],
  });
  if (item.PK.startsWith('STORY#')) {
    const slug = item.PK.slice('STORY#'.length);
    for (const prefix of ['REPRO#', 'CHECK#']) {
      if (item.SK.startsWith(prefix)) {
        const account = item.SK.slice(prefix.length);
        return withChecks(account, noteReportOn(account, slug), checkItem(key, itemExists));
      }
    }
    if (item.SK.startsWith('DRIFT#')) {
      const [sha256, account] = splitOnce(item.SK.slice('DRIFT#'.length));
      return account === '' ? undefined : withChecks(account, noteReportOn(account, slug, sha256), checkItem(key, itemExists));
    }
    return undefined;
  }
  if (item.SK !== 'META') return undefined;
  if (item.PK.startsWith('WEBSESS#') && typeof item.account === 'string') {
    const hash = item.PK.slice('WEBSESS#'.length);
    return withChecks(item.account, webSessionIndexItem(item.account, hash, Number(item.expires_at)), checkItem(key, itemExists));
  }
  if (item.PK.startsWith('IMAGE#') && typeof item.uploaded_by === 'string') {
    const uploader = item.uploaded_by;
    const pointed = checkItem(key, {
      expression: 'attribute_exists(PK) AND #by = :by',
      names: { '#by': 'uploaded_by' },
      values: { ':by': uploader },
    });
    return withChecks(uploader, imageIndexItem(uploader, item.PK.slice('IMAGE#'.length)), pointed);
  }
  return undefined;
}

function splitOnce(text: string): [string, string] {
  const at = text.indexOf('#');
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
