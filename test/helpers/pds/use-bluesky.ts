// Per-suite Bluesky fixture: a real PDS on 127.0.0.1 (with its in-memory PLC), the account
// lorebook posts as (with an app password), and the fault proxy in front of it. lorebook talks
// to the proxy; the tests count posts on the PDS itself with listRecords.
import { AtpAgent } from '@atproto/api';
import { afterAll, beforeAll } from 'vitest';
import { type BlueskyClient, createBlueskyClient } from '../../../integrations/bluesky/index.ts';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import type { Announcer } from '../../../src/outbox/announce/announcer.ts';
import type { AnnounceSettings } from '../../../src/outbox/announce/settings.ts';
import { type AnnounceSoon, announceSoonWith } from '../../../src/outbox/announce/soon.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { startTestPds, type TestAccount, type TestPds } from './test-pds.ts';

export const BASE_URL = 'https://lorebook.test';

export const TEST_ANNOUNCE_SETTINGS: AnnounceSettings = {
  baseUrl: BASE_URL,
  maxAttempts: 4,
  backoffBaseMs: 1_000,
  backoffCapMs: 60_000,
  staleClaimMs: 60_000,
};

export interface PostRecord {
  uri: string;
  value: {
    text: string;
    createdAt: string;
    facets?: { index: { byteStart: number; byteEnd: number }; features: { $type: string; did?: string; tag?: string; uri?: string }[] }[];
    embed?: { $type: string; external: { uri: string; title: string; description: string; thumb?: { mimeType: string; size: number } } };
  };
}

export interface BlueskyFixture {
  pds(): TestPds;
  proxy(): FaultProxy;
  /** The account lorebook posts as. */
  account(): TestAccount;
  /** A Bluesky client for lorebook's account, through the proxy. */
  client(options?: { appPassword?: string; requestTimeoutMs?: number }): BlueskyClient;
  /**
   * An announcer through the proxy; its log lines are collected in `logs`. With `documents`, it
   * also writes each story's standard.site document in TEST_PUBLICATION (design.md#standard-site).
   */
  announcer(
    settings?: Partial<AnnounceSettings>,
    options?: { appPassword?: string; requestTimeoutMs?: number; documents?: boolean },
  ): Announcer & { logs: string[]; port: BlueskyClient };
  /** Every post of the account, read from the PDS directly (listRecords, paged). */
  posts(): Promise<PostRecord[]>;
  /** The posts whose link card points at the story. */
  postsFor(slug: string): Promise<PostRecord[]>;
  /** Every record of a collection on the account, read from the PDS directly (listRecords, paged). */
  records(collection: string): Promise<RepoRecord[]>;
}

export interface RepoRecord {
  uri: string;
  cid: string;
  value: Record<string, unknown>;
}

export const TEST_PUBLICATION = {
  url: BASE_URL,
  name: 'lorebook (test)',
  description: 'Stories published on the test PDS.',
};

const MAX_PAGES = 20;

export function useBluesky(): BlueskyFixture {
  let pds: TestPds | undefined;
  let proxy: FaultProxy | undefined;
  let account: TestAccount | undefined;
  beforeAll(async () => {
    pds = await startTestPds();
    account = await pds.createAccount('lorebook');
    proxy = await startFaultProxy({ port: pds.port });
  });
  afterAll(async () => {
    await proxy?.close();
    await pds?.close();
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useBluesky: the PDS exists only inside tests and hooks');
    return value;
  };
  const client: BlueskyFixture['client'] = (options = {}) =>
    createBlueskyClient({
      service: need(proxy).url,
      identifier: need(account).handle,
      appPassword: options.appPassword ?? need(account).appPassword,
      requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
    });
  const records = async (collection: string): Promise<RepoRecord[]> => {
    const reader = new AtpAgent({ service: need(pds).url });
    const all: RepoRecord[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const { data } = await reader.com.atproto.repo.listRecords({ repo: need(account).did, collection, limit: 100, cursor });
      all.push(...(data.records as unknown as RepoRecord[]));
      cursor = data.cursor;
      if (cursor === undefined || data.records.length === 0) break;
    }
    return all;
  };
  const posts = async (): Promise<PostRecord[]> => (await records('app.bsky.feed.post')) as unknown as PostRecord[];
  return {
    pds: () => need(pds),
    proxy: () => need(proxy),
    account: () => need(account),
    client,
    announcer(settings = {}, options = {}) {
      const logs: string[] = [];
      const port = client(options);
      return {
        port,
        settings: { ...TEST_ANNOUNCE_SETTINGS, ...settings },
        log: (line) => void logs.push(line),
        logs,
        ...(options.documents === true ? { documents: { port: port.documents, publication: TEST_PUBLICATION } } : {}),
      };
    },
    posts,
    records,
    postsFor: async (slug) => (await posts()).filter((post) => post.value.embed?.external.uri === `${BASE_URL}/s/${slug}`),
  };
}

/**
 * The suite's AppContext with announcing on: publish and friends start an attempt after commit.
 * `ctx.announcing` is there as `npm start` has it, so a sweep schedule hears of retries owed.
 */
export function withAnnouncing(
  base: AppContext,
  announcer: Announcer,
): { ctx: AppContext & { announcing: AnnounceSoon }; idle(): Promise<void> } {
  const ctx = { ...base } as AppContext & { announcing: AnnounceSoon };
  const announcing = announceSoonWith(ctx, announcer);
  ctx.announcing = announcing;
  ctx.announceSoon = announcing.soon;
  return { ctx, idle: announcing.idle };
}
