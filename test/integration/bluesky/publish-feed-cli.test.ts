// `npm run bsky:publish-feed` as an operator runs it, against the real PDS on 127.0.0.1: the first
// run creates the feed record at the stable key; a second identical run changes nothing (same
// CID, still one record); a run with a new name replaces the same record, keeping its createdAt.
// Sixteen publishes at once (the library call the CLI makes) also end with one record; and the
// library in this process (where mutation testing sees it): unchanged, updated, refused.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { AtpAgent } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { publishFeedRecord } from '../../../integrations/bluesky/feed-generator-record.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';

const run = promisify(execFile);
const bsky = useBluesky();
/** Each run is a cold Node start that imports @atproto/api: seconds on a busy machine. */
const CLI_TEST_MS = 120_000;
const COLLECTION = 'app.bsky.feed.generator';

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function publishFeed(args: string[], extra: Record<string, string> = {}): Promise<Output> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('LOREBOOK_') && !name.startsWith('BLUESKY_')) env[name] = value;
  Object.assign(env, {
    LOREBOOK_BASE_URL: BASE_URL,
    BLUESKY_SERVICE: bsky.proxy().url,
    BLUESKY_IDENTIFIER: bsky.account().handle,
    BLUESKY_APP_PASSWORD: bsky.account().appPassword,
    ...extra,
  });
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'bsky:publish-feed', '--', ...args], {
      cwd: process.cwd(),
      env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function feedRecords(): Promise<Array<{ uri: string; cid: string; value: Record<string, unknown> }>> {
  const reader = new AtpAgent({ service: bsky.pds().url });
  const { data } = await reader.com.atproto.repo.listRecords({ repo: bsky.account().did, collection: COLLECTION, limit: 100 });
  return data.records as Array<{ uri: string; cid: string; value: Record<string, unknown> }>;
}

describe('npm run bsky:publish-feed', () => {
  it(
    'creates the feed record once; running it again changes nothing; a new name replaces the same record',
    async () => {
      const first = await publishFeed(['--json']);
      expect(first.code, first.stderr).toBe(0);
      const created = JSON.parse(first.stdout) as { outcome: string; uri: string; cid: string; publisherDid: string; service_did: string };
      expect(created).toMatchObject({
        outcome: 'created',
        uri: `at://${bsky.account().did}/${COLLECTION}/lorebook`,
        publisherDid: bsky.account().did,
        service_did: 'did:web:lorebook.test',
      });
      expect(first.stderr).toContain(`publish-feed: signing in to ${bsky.proxy().url} as ${bsky.account().handle}`);
      expect(first.stderr).toContain(`BLUESKY_FEED_PUBLISHER_DID=${bsky.account().did}`);
      const [record] = await feedRecords();
      expect(record?.value).toMatchObject({ $type: COLLECTION, did: 'did:web:lorebook.test', displayName: 'lorebook stories' });

      const again = await publishFeed(['--json'], { BLUESKY_FEED_PUBLISHER_DID: bsky.account().did });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'unchanged', uri: created.uri, cid: created.cid });
      expect(again.stderr).not.toContain('BLUESKY_FEED_PUBLISHER_DID=');
      expect(await feedRecords()).toEqual([record]);

      const renamed = await publishFeed(['--display-name', 'lorebook: new stories']);
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(renamed.stdout.trim()).toBe(`publish-feed: updated ${created.uri}`);
      const records = await feedRecords();
      expect(records).toHaveLength(1);
      expect(records[0]?.value).toMatchObject({ displayName: 'lorebook: new stories', createdAt: record?.value.createdAt });
    },
    CLI_TEST_MS,
  );

  it(
    'refuses a name longer than Bluesky allows before signing in (exit 2, with the usage); the record is untouched',
    async () => {
      const before = await feedRecords();
      const refused = await publishFeed(['--display-name', 'a name far longer than twenty-four characters']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--display-name must be 1 to 24 characters');
      expect(refused.stderr).toContain('usage: npm run bsky:publish-feed');
      expect(refused.stderr).not.toContain('signing in');
      expect(await feedRecords()).toEqual(before);
    },
    CLI_TEST_MS,
  );

  it(
    'without BLUESKY_* it says what to set and exits 1',
    async () => {
      const off = await publishFeed([], { BLUESKY_SERVICE: '', BLUESKY_IDENTIFIER: '', BLUESKY_APP_PASSWORD: '' });
      expect(off.code).toBe(1);
      expect(off.stderr).toContain('set BLUESKY_SERVICE, BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD');
    },
    CLI_TEST_MS,
  );
});

describe('publishing the feed record many times at once', () => {
  it(
    '16 parallel publishes of a new record under another key leave exactly one record, and all answer its CID',
    async () => {
      const publisher = {
        service: bsky.proxy().url,
        identifier: bsky.account().handle,
        appPassword: bsky.account().appPassword,
        requestTimeoutMs: 10_000,
      };
      const content = { did: 'did:web:lorebook.test', displayName: 'parallel', description: 'sixteen at once', acceptsInteractions: true };
      const results = await Promise.all(Array.from({ length: 16 }, () => publishFeedRecord(publisher, 'parallel', content)));
      const records = (await feedRecords()).filter((record) => record.uri.endsWith('/parallel'));
      expect(records).toHaveLength(1);
      expect(new Set(results.map((result) => result.cid))).toEqual(new Set([records[0]?.cid]));
      expect(results.filter((result) => result.outcome === 'created')).toHaveLength(1);
    },
    CLI_TEST_MS,
  );
});

describe('publishing the feed record through the library (what the CLI calls), in this process', () => {
  const publisher = () => ({
    service: bsky.proxy().url,
    identifier: bsky.account().handle,
    appPassword: bsky.account().appPassword,
    requestTimeoutMs: 10_000,
  });
  const record = async (rkey: string) => (await feedRecords()).find((found) => found.uri.endsWith(`/${rkey}`));
  const head = async () =>
    (await new AtpAgent({ service: bsky.pds().url }).com.atproto.sync.getLatestCommit({ did: bsky.account().did })).data;

  it(
    'the same content again is unchanged (same CID, no new commit); new content updates the same record and keeps its createdAt',
    async () => {
      const content = { did: 'did:web:lorebook.test', displayName: 'in process', description: 'first words', acceptsInteractions: true };
      const created = await publishFeedRecord(publisher(), 'library', content);
      expect(created.outcome).toBe('created');
      const commit = await head();
      expect(await publishFeedRecord(publisher(), 'library', content)).toEqual({ ...created, outcome: 'unchanged' });
      expect(await head()).toEqual(commit);
      const createdAt = (await record('library'))?.value.createdAt;
      const updated = await publishFeedRecord(publisher(), 'library', { ...content, description: 'second words' });
      expect(updated).toMatchObject({ outcome: 'updated', uri: created.uri });
      expect(updated.cid).not.toBe(created.cid);
      expect(await record('library')).toMatchObject({ cid: updated.cid, value: { description: 'second words', createdAt } });
    },
    CLI_TEST_MS,
  );

  it(
    "a record the PDS refuses is reported with the PDS's reason at once, not retried as a race; the stored record is untouched",
    async () => {
      const content = { did: 'did:web:lorebook.test', displayName: 'refusal', description: 'kept', acceptsInteractions: true };
      const created = await publishFeedRecord(publisher(), 'refused', content);
      const lines: string[] = [];
      // Longer than the lexicon's 24 graphemes: the PDS validates the record and says no.
      const refused = await publishFeedRecord(
        publisher(),
        'refused',
        { ...content, displayName: 'x'.repeat(30) },
        (line) => void lines.push(line),
      ).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).not.toMatch(/kept changing/);
      expect(lines.filter((line) => line.includes('changed while publishing'))).toEqual([]);
      expect((await record('refused'))?.cid).toBe(created.cid);
    },
    CLI_TEST_MS,
  );
});
