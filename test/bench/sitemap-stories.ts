// Stories for bench:sitemap, written straight into DynamoDB (BatchWriteItem, a bounded number
// in flight): a real story's META item (parsed, scanned and mapped by the same code a publish
// uses) copied under new slugs and times, in one feed month, with the months item and the
// authors' account items. No BODY or revisions: no sitemap reads them.
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { withCapability } from '../../src/domain/capability/scanned-story.ts';
import { parseStory } from '../../src/domain/story/parse-story.ts';
import { accountKey, feedMonthsKey } from '../../src/store/keys.ts';
import type { Store } from '../../src/store/store.ts';
import { newStoryMetaItem } from '../../src/store/story/story-items.ts';
import { storyTitled } from '../helpers/stories.ts';

const BATCH = 25;
const IN_FLIGHT = 4;
const MAX_UNPROCESSED_ROUNDS = 20;

export interface BenchFeed {
  month: string;
  authors: number;
}

const accountId = (index: number): string => `acct-sitemap-${index}`;

async function writeAll(store: Store, items: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += BATCH) batches.push(items.slice(start, start + BATCH));
  const writeBatch = async (batch: Record<string, unknown>[]): Promise<void> => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_UNPROCESSED_ROUNDS) throw new Error('bench:sitemap: DynamoDB Local left writes unprocessed');
      const output = await store.client.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
      pending = (output.UnprocessedItems?.[store.tableName] ?? []) as typeof pending;
    }
  };
  for (let next = 0; next < batches.length; next += IN_FLIGHT) await Promise.all(batches.slice(next, next + IN_FLIGHT).map(writeBatch));
}

/** The authors' accounts and the month in the months item. */
export async function prepareFeed(store: Store, feed: BenchFeed): Promise<void> {
  const accounts = Array.from({ length: feed.authors }, (_unused, index) => ({
    ...accountKey(accountId(index)),
    id: accountId(index),
    handle: `author-${index}.bench.test`,
    created_at: `${feed.month}-01T00:00:00.000Z`,
  }));
  await writeAll(store, accounts);
  await store.client.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: feedMonthsKey,
      UpdateExpression: 'ADD #months :month',
      ExpressionAttributeNames: { '#months': 'months' },
      ExpressionAttributeValues: { ':month': new Set([feed.month]) },
    }),
  );
}

/** Stories `from` to `to - 1` of the month: one a second from its first day, authors in turn. */
export async function writeStories(store: Store, feed: BenchFeed, from: number, to: number): Promise<void> {
  const story = withCapability(parseStory(storyTitled('A story the sitemap bench copies')));
  const start = Date.parse(`${feed.month}-01T00:00:00.000Z`);
  const items = [];
  for (let index = from; index < to; index += 1) {
    const at = new Date(start + index * 1000).toISOString();
    const slug = `${at.slice(0, 10)}-sitemap-bench-story-${index}`;
    items.push(newStoryMetaItem({ slug, author: accountId(index % feed.authors), story, at, similar: [] }));
  }
  await writeAll(store, items);
}
