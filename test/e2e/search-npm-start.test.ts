// Search across two real `npm start` processes on one store (each a child process on this
// suite's table, with its own search index, both reading DynamoDB Local's table stream, sharing
// one snapshot directory): a publish, edit, hide, unhide or visibility change sent to one through
// /v1 is found — or no longer found — by search_stories on the other within 5 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { eventually } from '../helpers/eventually.ts';
import { answerOf } from '../helpers/lorebook-server.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

/** "Within seconds", generous for a loaded machine: the stream poll (1 s) plus the log read (1 s). */
const WITHIN_MS = 5000;
const app = useAppFixture('e2e-search-npm-start');
const searchDir = mkdtempSync(join(tmpdir(), 'lorebook-search-shared-'));
let token: string;
let writer: NpmStart;
let reader: NpmStart;
let searcher: Client;

beforeAll(async () => {
  token = (await createToken(app.ctx(), { handle: 'searching-author', expiresInSeconds: 3600 })).token;
  const env = { LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000', LOREBOOK_SEARCH_DIR: searchDir };
  [writer, reader] = await Promise.all([
    startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName, env }),
    startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName, env }),
  ]);
  searcher = new Client({ name: 'lorebook-search-e2e', version: '1.0.0' });
  await searcher.connect(new StreamableHTTPClientTransport(new URL(`${reader.baseUrl}/mcp`)));
}, 180_000);

afterAll(async () => {
  await searcher?.close();
  await Promise.all([writer?.stop(), reader?.stop()]);
  rmSync(searchDir, { recursive: true, force: true });
}, 60_000);

async function send(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${writer.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  expect(response.ok, JSON.stringify(answer)).toBe(true);
  return answer;
}

const titlesOnReader = async (query: string): Promise<string[]> =>
  answerOf<{ stories: { title: string }[] }>(await searcher.callTool({ name: 'search_stories', arguments: { query } })).stories.map(
    (story) => story.title,
  );

/** Waits until the other process answers `expected`; the ms it took. */
async function onReaderWithin(query: string, expected: string[]): Promise<number> {
  const started = Date.now();
  await eventually(
    async () => (JSON.stringify(await titlesOnReader(query)) === JSON.stringify(expected) ? true : undefined),
    `search_stories("${query}") on the other npm start answering ${JSON.stringify(expected)}`,
    WITHIN_MS,
  );
  return Date.now() - started;
}

describe('two npm start processes on one store', () => {
  it(`a publish, edit, hide, unhide and visibility change on one reach search_stories on the other within ${WITHIN_MS / 1000} s`, async () => {
    const title = 'Quokka schedulers drifted';
    // Before the write the other process has its index (cold start done): what follows is the change log's doing.
    expect(await titlesOnReader('quokka')).toEqual([]);
    const { slug } = (await send('POST', '/v1/stories', { markdown: storyTitled(title) })) as { slug: string };
    const lags = [await onReaderWithin('quokka', [title])];
    await send('PUT', `/v1/stories/${slug}`, { markdown: storyTitled(title, { extra: 'Pangolin clocks skewed.' }), kind: 'addition' });
    lags.push(await onReaderWithin('pangolin', [title]));
    await send('POST', `/v1/stories/${slug}/visibility`, { hidden: true });
    lags.push(await onReaderWithin('quokka', []));
    await send('POST', `/v1/stories/${slug}/visibility`, { hidden: false });
    lags.push(await onReaderWithin('quokka', [title]));
    await send('PUT', `/v1/stories/${slug}`, { markdown: storyTitled(title, { visibility: 'private' }), kind: 'rephrase' });
    lags.push(await onReaderWithin('quokka', []));
    console.log('npm start to npm start, write-to-searchable (ms):', lags);
  }, 60_000);
});
