// A real `npm start` whose connection to DynamoDB goes through the TCP fault proxy: while the
// proxy destroys every connection, each of the drafts' and images' writes (draft_story_for,
// claim_draft, publish_draft, upload_image over /v1) answers a retryable store_unavailable and
// writes nothing; once it forwards again, the caller's retry lands as one clean call, and a repeat
// answers the same and changes nothing. The proxy cuts connections already open too, so the
// server's pooled keep-alive sockets die as they would in a real outage.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { streamCheckpointPrefix } from '../../src/store/keys.ts';
import { SEARCH_LOG_PREFIX } from '../../src/store/search/search-log.ts';
import { searchPointerKey } from '../../src/store/search/search-pointer.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { eventually } from '../helpers/eventually.ts';
import { pictureOf } from '../helpers/images.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { storyTitled } from '../helpers/stories.ts';
import { startTcpFaultProxy, type TcpFaultProxy } from '../helpers/tcp-fault-proxy.ts';
import { testEndpoint } from '../helpers/test-table.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const app = useAppFixture('e2e-cut-store-connection');
const imageDir = mkdtempSync(join(tmpdir(), 'lorebook-cut-images-'));
let proxy: TcpFaultProxy | undefined;
let server: NpmStart | undefined;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

beforeAll(async () => {
  proxy = await startTcpFaultProxy({ port: Number(new URL(testEndpoint()).port) });
  server = await startNpmStart({ endpoint: proxy.url, table: app.ctx().store.tableName, env: { LOREBOOK_IMAGE_DIR: imageDir } });
  for (const handle of ['alice', 'bob'] as const) {
    tokens[handle] = (await createToken(app.ctx(), { handle, expiresInSeconds: 3600 })).token;
  }
  // npm start's first capability re-scan writes its job item: done before any state is compared.
  await eventually(
    async () => ((server as NpmStart).output().includes('capability re-scan') ? true : undefined),
    'the first re-scan',
    60_000,
  );
});
afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  rmSync(imageDir, { recursive: true, force: true });
});

type Item = Record<string, unknown>;
/**
 * What a write may change: everything but the rate windows every call counts in (a cut call may
 * count or not) and npm start's own background bookkeeping, which moves on its own time after a
 * publish: the stream poller's checkpoints, the search change log and the search snapshot pointer.
 */
const BACKGROUND = [streamCheckpointPrefix, SEARCH_LOG_PREFIX];
const observable = async (): Promise<Item[]> =>
  (await app.allItems()).filter((item) => {
    const pk = String(item.PK);
    return !pk.startsWith('RATE#') && pk !== searchPointerKey.PK && !BACKGROUND.some((prefix) => pk.startsWith(prefix));
  });
const keyOf = (item: Item): string => `${String(item.PK)} / ${String(item.SK)}`;

interface Call {
  path: string;
  token: string;
  body: string | Uint8Array;
  contentType: string;
  /** Sent as Idempotency-Key; absent: a plain repeat. */
  opId?: string;
}

async function send(call: Call): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${(server as NpmStart).baseUrl}${call.path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${call.token}`,
      'content-type': call.contentType,
      ...(call.opId === undefined ? {} : { 'idempotency-key': call.opId }),
    },
    body: call.body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The call while every connection to the store is destroyed, then again once it is restored, then
 * its replay and a repeat without the op_id. Answers the restored call's answer and the keys of
 * the items it added.
 */
async function cutThenRetry(call: Call): Promise<{ answer: Record<string, unknown>; added: string[] }> {
  const before = await observable();
  await (proxy as TcpFaultProxy).set('destroy');
  const cut = await send(call).finally(() => (proxy as TcpFaultProxy).set('forward'));
  expect(cut.status, (server as NpmStart).output()).toBe(503);
  expect(cut.body).toMatchObject({ code: 'store_unavailable', retryable: true });
  expect(await observable()).toEqual(before);

  const retried = await send(call);
  expect(retried.status, JSON.stringify(retried.body)).toBeLessThan(300);
  const after = await observable();
  // Replayed by its op_id, and repeated without one: the same answer, nothing more written.
  const replayed = await send(call);
  expect(replayed.body).toEqual({ ...retried.body, replayed: true });
  const { opId: _opId, ...plain } = call;
  const repeated = await send(plain);
  expect(repeated.status).toBeLessThan(300);
  expect(repeated.body).toEqual(retried.body);
  expect((await observable()).filter((item) => !String(item.PK).startsWith('OP#'))).toEqual(
    after.filter((item) => !String(item.PK).startsWith('OP#')),
  );
  const known = new Set(before.map(keyOf));
  return { answer: retried.body, added: after.map(keyOf).filter((key) => !known.has(key)) };
}

const json = (token: string, path: string, body: Record<string, unknown>): Call => ({
  path,
  token,
  body: JSON.stringify(body),
  contentType: 'application/json',
  opId: `op-${randomUUID()}`,
});

describe('npm start with its store connection cut, then restored', () => {
  let claimUrl = '';
  let draftId = '';

  it('draft_story_for: refused while cut, nothing written; the retry writes one draft, its list item, its key and the op', async () => {
    const { answer, added } = await cutThenRetry(
      json(tokens.alice, '/v1/drafts', {
        markdown: storyTitled('Drafted across a cut store connection'),
        invitee_note: 'I wrote up what we fixed together yesterday.',
        draft_key: randomUUID(),
      }),
    );
    claimUrl = String(answer.claim_url);
    draftId = String((answer.draft as { id: string }).id);
    expect(
      added.map((key) => key.replace(/[0-9a-f]{64}|acct_[\w-]+|\d{4}-\d\d-\d\dT[\d:.]+Z/g, '…').replace(/op-[\w-]+/, 'op-…')).sort(),
    ).toEqual(['ACCOUNT#… / DRAFT#…#…', 'ACCOUNT#… / DRAFTKEY#…', 'DRAFT#… / META', `OP#… / op-…`].sort());
  });

  it('claim_draft: refused while cut, nothing written; the retry claims once and notifies the claimer once', async () => {
    const { answer, added } = await cutThenRetry(json(tokens.bob, '/v1/drafts/claim', { claim_url: claimUrl }));
    expect(answer.draft).toMatchObject({ id: draftId, status: 'claimed' });
    expect(added.filter((key) => key.startsWith('INBOX#'))).toHaveLength(1);
    expect(added.filter((key) => key.startsWith('ACCOUNT#'))).toHaveLength(1);
  });

  it('publish_draft: refused while cut, nothing written; the retry publishes one story from the draft', async () => {
    const { answer, added } = await cutThenRetry(json(tokens.bob, `/v1/drafts/${draftId}/publish`, {}));
    const slug = String(answer.slug);
    expect(added.filter((key) => key === `STORY#${slug} / META`)).toHaveLength(1);
    expect(added.filter((key) => key.startsWith(`STORY#${slug} / REV#`))).toHaveLength(1);
    const draft = (await app.allItems()).find((item) => item.PK === `DRAFT#${draftId}`);
    expect(draft).toMatchObject({ status: 'published', story: slug });
  });

  it('upload_image: refused while cut, no record; the retry stores one file, one record, one count', async () => {
    const { answer } = await cutThenRetry({
      path: '/v1/images',
      token: tokens.alice,
      body: await pictureOf(7),
      contentType: 'image/png',
      opId: `op-${randomUUID()}`,
    });
    const sha256 = String(answer.sha256);
    expect(readdirSync(imageDir)).toEqual([`${sha256}.png`]);
    const items = await app.allItems();
    expect(items.filter((item) => item.PK === `IMAGE#${sha256}`)).toHaveLength(1);
    expect(items.find((item) => String(item.PK).startsWith('IMGDAY#'))?.hashes).toEqual([sha256]);
  });
});
