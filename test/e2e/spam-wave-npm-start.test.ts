// A spam wave through `npm start` and the real MCP client (design.md#spam-waves): twenty accounts publish a
// spammer's copies of one story at once over /mcp; one lands, the other nineteen are refused with
// duplicate_content naming it, one story is listed, nothing is posted to the test PDS, and
// `moderate queue` shows the wave.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { listDuplicateRefusals } from '../../src/store/near-duplicate/duplicate-refusal-items.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../helpers/command-env.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { useBluesky } from '../helpers/pds/use-bluesky.ts';
import { pairsNotNearDuplicate, spamCopy, storyOfItsOwn } from '../helpers/spam-wave.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const WAVE = 20;
const app = useAppFixture('e2e-spam-wave-npm-start');
const bsky = useBluesky();
let server: NpmStart;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startNpmStart({
    endpoint: testEndpoint(),
    table: app.ctx().store.tableName,
    env: {
      LOREBOOK_DUPLICATE_WINDOW_HOURS: '168',
      // The wave's accounts are minutes old, as a real wave's are: new accounts (design.md#new-accounts).
      LOREBOOK_NEW_ACCOUNT_HOURS: '24',
      BLUESKY_SERVICE: bsky.proxy().url,
      BLUESKY_IDENTIFIER: bsky.account().handle,
      BLUESKY_APP_PASSWORD: bsky.account().appPassword,
    },
  });
  for (let index = 0; index < WAVE; index += 1) {
    const { token } = await createToken(app.ctx(), { handle: `spammer-${index}`, expiresInSeconds: 3600 });
    const client = new Client({ name: `spammer-${index}`, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
}, 60_000);

describe('a spam wave through npm start and MCP', () => {
  it('twenty accounts publishing near-identical copies at once: one lands, held from Bluesky, nineteen are duplicate_content naming it; nothing is posted', async () => {
    const copies = clients.map((_, copy) => spamCopy(storyOfItsOwn('Make money with retries', 20, 24), copy));
    expect(pairsNotNearDuplicate(copies)).toEqual([]);
    const results = (await Promise.all(
      clients.map((client, copy) => client.callTool({ name: 'publish_story', arguments: { markdown: copies[copy] } })),
    )) as CallToolResult[];
    const landed = results.filter((result) => result.isError !== true).map((result) => (result.structuredContent as { slug: string }).slug);
    expect(landed).toHaveLength(1);
    const original = landed[0] as string;
    for (const result of results.filter((refused) => refused.isError === true)) {
      expect(result.structuredContent).toMatchObject({ code: 'duplicate_content', retryable: false, details: { original } });
    }

    const listed = (await (await fetch(`${server.baseUrl}/v1/stories?limit=50`)).json()) as { stories: { slug: string }[] };
    expect(listed.stories.map((story) => story.slug).filter((slug) => slug.includes('make-money-with-retries'))).toEqual([original]);
    const refusals = await listDuplicateRefusals(app.ctx().store, new Date().toISOString().slice(0, 10));
    expect(refusals.filter((refusal) => refusal.original === original)).toHaveLength(WAVE - 1);

    // The one that landed is a new account's: its announcement waits (held, new_account), so the
    // wave reaches Bluesky not at all.
    const meta = (await app.state()).find((item) => item.PK === `STORY#${original}` && item.SK === 'META');
    expect(meta?.held_reason).toBe('new_account');
    const wavePosts = (await bsky.posts()).filter((post) => post.value.embed?.external.uri.includes('make-money-with-retries'));
    expect(wavePosts).toEqual([]);

    // The operator sees the wave: one entry naming the original with the nineteen refused copies,
    // and the original's held announcement.
    const { stdout } = await promisify(execFile)(process.execPath, ['src/cli/moderate.ts', 'queue', '--json'], {
      env: { ...withoutLorebookSettings(), LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName },
    });
    const queue = JSON.parse(stdout) as { kind: string; slug: string; copies?: number; accounts?: string[] }[];
    expect(queue.filter((entry) => entry.kind === 'spam_wave')).toMatchObject([{ slug: original, copies: WAVE - 1 }]);
    expect(queue.find((entry) => entry.kind === 'spam_wave')?.accounts).toHaveLength(WAVE - 1);
    expect(queue.filter((entry) => entry.kind === 'held_announcement').map((entry) => entry.slug)).toEqual([original]);
  }, 240_000);
});
