// Search through the real surfaces: the MCP SDK client over HTTP against a served app, and a
// second instance on the same table (its own store client and search index) fed by the real
// stream function (handlers/stream.ts) with the table's own stream records from DynamoDB Local,
// as Lambda would deliver them. A publish, edit, hide, unhide or visibility change on one
// instance reaches search_stories on the other within 5 s.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, storeRuntime } from '../../handlers/lambda-runtime.ts';
import { handleRecords } from '../../handlers/stream.ts';
import { readStreamRecords } from '../helpers/local-stream.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const server = useLorebookServer('search-across-instances', { stream: true });
let author: Client;
let elsewhere: string;
let runtime: Runtime;
let seen = 0;

/** A generous bound for "within seconds" that a loaded machine still meets. */
const WITHIN_MS = 5000;

beforeAll(async () => {
  author = await server.mcp((await server.token('search-author')).token);
  elsewhere = await server.anotherInstance();
  runtime = storeRuntime({ LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: server.app.ctx().store.tableName }, () => {});
});

/** The stream function handles what the table's stream holds since last time (as Lambda would, in order). */
async function streamDelivers(): Promise<void> {
  const all: DynamoDBRecord[] = await readStreamRecords(testEndpoint(), server.app.ctx().store.client, server.app.ctx().store.tableName);
  const fresh = all.slice(seen);
  seen = all.length;
  for (let start = 0; start < fresh.length; start += 100) {
    expect((await handleRecords(runtime, fresh.slice(start, start + 100))).batchItemFailures).toEqual([]);
  }
}

async function titlesElsewhere(query: string): Promise<string[]> {
  const answer = await fetch(`${elsewhere}/v1/stories?q=${encodeURIComponent(query)}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { stories: { title: string }[] }).stories.map((story) => story.title);
}

/** How long until the other instance answers `expected` for the query (polling it), or fails past WITHIN_MS. */
async function reachesElsewhere(query: string, expected: string[]): Promise<number> {
  const started = Date.now();
  await streamDelivers();
  for (;;) {
    const titles = await titlesElsewhere(query);
    if (JSON.stringify(titles) === JSON.stringify(expected)) return Date.now() - started;
    if (Date.now() - started > WITHIN_MS) expect(titles).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const call = async (name: string, args: Record<string, unknown>) => answerOf(await author.callTool({ name, arguments: args }));

describe('search_stories through MCP', () => {
  it('a word only in the body of a story finds it', async () => {
    await call('publish_story', { markdown: storyTitled('Body words are searched', { extra: 'A thrombolytic detail only here.' }) });
    const found = answerOf<{ stories: { title: string }[] }>(
      await author.callTool({ name: 'search_stories', arguments: { query: 'thrombolytic' } }),
    );
    expect(found.stories.map((story) => story.title)).toEqual(['Body words are searched']);
  });
});

describe('a write on one instance reaches search on another', () => {
  it(`publish, edit, hide, unhide and a visibility change each within ${WITHIN_MS / 1000} s`, async () => {
    const title = 'Marmoset workers deadlocked';
    const { slug } = (await call('publish_story', { markdown: storyTitled(title) })) as { slug: string };
    const lags = [await reachesElsewhere('marmoset', [title])];

    await call('edit_story', { slug, markdown: storyTitled(title, { extra: 'Narwhal locks were the cause.' }), kind: 'addition' });
    lags.push(await reachesElsewhere('narwhal', [title]));

    await call('set_visibility', { slug, hidden: true });
    lags.push(await reachesElsewhere('marmoset', []));
    await call('set_visibility', { slug, hidden: false });
    lags.push(await reachesElsewhere('marmoset', [title]));

    await call('edit_story', { slug, markdown: storyTitled(title, { visibility: 'private' }), kind: 'rephrase' });
    lags.push(await reachesElsewhere('marmoset', []));
    console.log('write-to-searchable lags on the other instance (ms):', lags);
  });
});
