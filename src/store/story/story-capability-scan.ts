// One page of a walk over every story's META for the capability re-scan: a Scan of the table,
// filtered to story METAs and projected to what says whether a story needs a re-scan (its
// revision and report version) or a capability record (the report's hash, whether it is listed). A
// Scan, not a Query of the feed or author index: the feed holds only listed stories and the author
// index needs every author first, while private and hidden stories need a re-scan too (their author
// reads the report). Each page reads at most `limit` items and hands back where it stopped, so a
// walk is resumable and no call reads more than one bounded page.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export interface StoryScanState {
  slug: string;
  revision: number;
  /** The version of the stored report; undefined when the story was never scanned. */
  scanner_version: string | undefined;
  /** The stored report's sha256; undefined when the story was never scanned. */
  sha256: string | undefined;
  visibility: string;
  hidden: boolean;
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
        ProjectionExpression: 'PK, #revision, #visibility, #hidden, #capability.#version, #capability.#sha',
        ExpressionAttributeNames: {
          '#revision': 'revision',
          '#visibility': 'visibility',
          '#hidden': 'hidden',
          '#capability': 'capability',
          '#version': 'scanner_version',
          '#sha': 'sha256',
        },
        ExpressionAttributeValues: { ':meta': 'META', ':story': 'STORY#' },
        ConsistentRead: true,
        Limit: limit,
        ...(from === undefined ? {} : { ExclusiveStartKey: { PK: from.PK, SK: from.SK } }),
      }),
    ),
  );
  const stories = (output.Items ?? []).map((item) => {
    const capability = item.capability as { scanner_version?: unknown; sha256?: unknown } | undefined;
    return {
      slug: String(item.PK).slice('STORY#'.length),
      revision: Number(item.revision),
      scanner_version: typeof capability?.scanner_version === 'string' ? capability.scanner_version : undefined,
      sha256: typeof capability?.sha256 === 'string' ? capability.sha256 : undefined,
      visibility: String(item.visibility),
      hidden: item.hidden === true,
    };
  });
  const last = output.LastEvaluatedKey as ItemKey | undefined;
  return { stories, looked_at: output.ScannedCount ?? 0, next: last === undefined ? undefined : { PK: last.PK, SK: last.SK } };
}
