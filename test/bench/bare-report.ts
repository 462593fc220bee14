// The references for the surface benchmarks: the items one first report_reproduction writes
// (REPRO#account, the counted META update, the author's notification), built with lorebook's own
// store builders and sent as one bare TransactWriteItems with the SDK — no HTTP, no MCP, no
// token, no rate window, no snapshot read, no plan. And the physical limit of a write tool call
// (issue 18): the snapshot read the tool makes (the same two keys, TransactGetItems) and then that
// transaction, in sequence, from the same SDK client.
import {
  TransactGetCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { WriteAction } from '../../src/store/actions.ts';
import { countMember } from '../../src/store/list-conditioned-counter.ts';
import { notificationItem } from '../../src/store/story/notification-items.ts';
import { createItem } from '../../src/store/replace-by-key.ts';
import { reproductionKey, storyKey } from '../../src/store/keys.ts';
import { reproducerCounter, reproductionItem } from '../../src/store/story/reproduction-items.ts';

export interface BareReport {
  slug: string;
  title: string;
  author: string;
  account: string;
  handle: string;
}

const REPRODUCER_CAP = 10_000;
export const REPORT_NOTE = 'Followed the steps on Node 22; it worked first time.';

export function bareReportItems(report: BareReport, at: string): WriteAction[] {
  return [
    createItem(reproductionItem({ slug: report.slug, account: report.account, result: 'worked', note: REPORT_NOTE, counted: true, at })),
    countMember(reproducerCounter(report.slug, report.account), 'worked', REPRODUCER_CAP),
    createItem(
      notificationItem({
        recipient: report.author,
        kind: 'reproduction',
        story: report.slug,
        story_title: report.title,
        actor: report.account,
        actor_handle: report.handle,
        text: `${report.handle} reported "worked" reproducing "${report.title}".`,
        at,
        discriminator: JSON.stringify(['worked', REPORT_NOTE, null, null]),
      }),
    ),
  ];
}

export async function sendBareReport(client: DynamoDBDocumentClient, tableName: string, report: BareReport): Promise<void> {
  const TransactItems = bareReportItems(report, new Date().toISOString()).map((action) => {
    if ('Put' in action) return { Put: { ...action.Put, TableName: tableName } };
    if ('Update' in action) return { Update: { ...action.Update, TableName: tableName } };
    throw new Error('a first report is puts and one update');
  }) as TransactWriteCommandInput['TransactItems'];
  await client.send(new TransactWriteCommand({ TransactItems }));
}

/** The limit: what report_reproduction reads (story META, the caller's REPRO#), then its transaction. */
export async function sendBareReadThenReport(client: DynamoDBDocumentClient, tableName: string, report: BareReport): Promise<void> {
  const keys = [storyKey(report.slug), reproductionKey(report.slug, report.account)];
  await client.send(new TransactGetCommand({ TransactItems: keys.map((Key) => ({ Get: { TableName: tableName, Key } })) }));
  await sendBareReport(client, tableName, report);
}
