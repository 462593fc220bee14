// One page of a walk over every story's META for the capability re-scan: a Scan of the table,
// filtered to story METAs and projected to the three attributes that say whether a story needs a
// re-scan. A Scan, not a Query of the feed or author index: the feed holds only listed stories
// and the author index needs every author first, while private and hidden stories need a
// re-scan too (their author reads the report). Each page reads at most `limit` items and hands
// back where it stopped, so a walk is resumable and no call reads more than one bounded page.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../keys.ts';
import { callStore } from '../store-unavailable.ts';
import type { Store } from '../store.ts';

export interface StoryScanState {
  slug: string;
  revision: number;
  /** The version of the stored report; undefined when the story was never scanned. */
  scanner_version: string | undefined;
}

export interface StoryScanPage {
  stories: StoryScanState[];
  /** Items the page read (every kind: the filter applies after the read). */
  looked_at: number;
  /** Where the next page starts; undefined when the walk reached the end of the table. */
  next: ItemKey | undefined;
}

export async function scanStoryCapabilities(store: Store, from: ItemKey | undefined, limit: number): Promise<StoryScanPage> {
  const output = await callStore(() =>
    store.client.send(
      new ScanCommand({
        TableName: store.tableName,
        FilterExpression: 'SK = :meta AND begins_with(PK, :story)',
        ProjectionExpression: 'PK, #revision, #capability.#version',
        ExpressionAttributeNames: { '#revision': 'revision', '#capability': 'capability', '#version': 'scanner_version' },
        ExpressionAttributeValues: { ':meta': 'META', ':story': 'STORY#' },
        ConsistentRead: true,
        Limit: limit,
        ...(from === undefined ? {} : { ExclusiveStartKey: { PK: from.PK, SK: from.SK } }),
      }),
    ),
  );
  const stories = (output.Items ?? []).map((item) => {
    const capability = item.capability as { scanner_version?: unknown } | undefined;
    return {
      slug: String(item.PK).slice('STORY#'.length),
      revision: Number(item.revision),
      scanner_version: typeof capability?.scanner_version === 'string' ? capability.scanner_version : undefined,
    };
  });
  const last = output.LastEvaluatedKey as ItemKey | undefined;
  return { stories, looked_at: output.ScannedCount ?? 0, next: last === undefined ? undefined : { PK: last.PK, SK: last.SK } };
}
