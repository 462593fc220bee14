// The references for the surface benchmarks: the items one first report_reproduction writes
// (REPRO#account, the counted META update, the author's notification), built with lorebook's own
// store builders and sent as one bare TransactWriteItems with the SDK — no HTTP, no MCP, no
// token, no rate window, no snapshot read, no plan. And the physical limit of a write tool call
// (issue 18): the snapshot read the tool makes (the same two keys, TransactGetItems) and then that
// transaction, in sequence, from the same SDK client. And lorebook's own DynamoDB calls with no
// surface around them: that limit with the rate window's count sent beside the read, as the
// server sends it.
import {
  type DynamoDBDocumentClient,
  TransactGetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { WriteAction } from '../../src/store/actions.ts';
import { reproductionKey, storyKey } from '../../src/store/keys.ts';
import { countMember } from '../../src/store/list-conditioned-counter.ts';
import { countCallParams } from '../../src/store/rate-window.ts';
import { createItem } from '../../src/store/replace-by-key.ts';
import { epochSeconds } from '../../src/store/store.ts';
import { notificationItem } from '../../src/store/story/notification-items.ts';
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
    countMember(reproducerCounter(report.slug, { account: report.account }), 'worked', REPRODUCER_CAP),
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

const readFor = (client: DynamoDBDocumentClient, tableName: string, report: BareReport): Promise<unknown> =>
  client.send(
    new TransactGetCommand({
      TransactItems: [storyKey(report.slug), reproductionKey(report.slug, report.account)].map((Key) => ({
        Get: { TableName: tableName, Key },
      })),
    }),
  );

/** The limit: what report_reproduction reads (story META, the caller's REPRO#), then its transaction. */
export async function sendBareReadThenReport(client: DynamoDBDocumentClient, tableName: string, report: BareReport): Promise<void> {
  await readFor(client, tableName, report);
  await sendBareReport(client, tableName, report);
}

/** A window no run fills, like the bench server's rate limit. */
const BENCH_RATE_LIMIT = 1_000_000_000;

/** The server's DynamoDB calls alone: the account's rate-window count beside the read, then the transaction. */
export async function sendCountedReadThenReport(client: DynamoDBDocumentClient, tableName: string, report: BareReport): Promise<void> {
  const now = Date.now();
  const windowStartMs = Math.floor(now / 60_000) * 60_000;
  const count = client.send(
    new UpdateCommand(
      countCallParams(tableName, {
        subject: `account:${report.account}`,
        windowStartMs,
        limit: BENCH_RATE_LIMIT,
        expiresAt: epochSeconds(windowStartMs + 60_000) + 120,
      }),
    ),
  );
  await Promise.all([count, readFor(client, tableName, report)]);
  await sendBareReport(client, tableName, report);
}
