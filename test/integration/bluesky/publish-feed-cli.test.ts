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
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
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
  const env = withoutLorebookSettings();
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
  const uriOf = (rkey: string): string => `at://${bsky.account().did}/${COLLECTION}/${rkey}`;
  /** The feeds with LOREBOOK_FEED_TAGS at its default: main, two tags, needs reproducers. */
  const RKEYS = ['lorebook', 'tag-typescript', 'tag-dynamodb', 'needs-repro'];
  const head = async () =>
    (await new AtpAgent({ service: bsky.pds().url }).com.atproto.sync.getLatestCommit({ did: bsky.account().did })).data;

  it(
    'creates every feed record once, each accepting interactions; running it again rewrites nothing; a new name replaces the same main record',
    async () => {
      const first = await publishFeed(['--json']);
      expect(first.code, first.stderr).toBe(0);
      const created = JSON.parse(first.stdout) as {
        service_did: string;
        publisherDid: string;
        feeds: Array<{ feed: string; outcome: string; uri: string; cid: string }>;
      };
      expect(created).toMatchObject({ service_did: 'did:web:lorebook.test', publisherDid: bsky.account().did });
      expect(created.feeds.map((feed) => [feed.feed, feed.outcome, feed.uri])).toEqual([
        ['main', 'created', uriOf('lorebook')],
        ['tag:typescript', 'created', uriOf('tag-typescript')],
        ['tag:dynamodb', 'created', uriOf('tag-dynamodb')],
        ['needs-reproducers', 'created', uriOf('needs-repro')],
      ]);
      expect(first.stderr).toContain(`publish-feed: signing in to ${bsky.proxy().url} as ${bsky.account().handle}`);
      expect(first.stderr).toContain(`publish-feed: [1/4] created main ${uriOf('lorebook')}`);
      expect(first.stderr).toContain(`publish-feed: [4/4] created needs-reproducers ${uriOf('needs-repro')}`);
      expect(first.stderr).toContain(`BLUESKY_FEED_PUBLISHER_DID=${bsky.account().did}`);
      const records = await feedRecords();
      expect(records.map((record) => record.uri).sort()).toEqual(RKEYS.map(uriOf).sort());
      for (const record of records) {
        expect(record.value).toMatchObject({ $type: COLLECTION, did: 'did:web:lorebook.test', acceptsInteractions: true });
      }
      expect(records.find((record) => record.uri === uriOf('lorebook'))?.value.displayName).toBe('lorebook stories');
      expect(records.find((record) => record.uri === uriOf('tag-typescript'))?.value.displayName).toBe('lorebook #typescript');
      const commit = await head();

      const again = await publishFeed(['--json'], { BLUESKY_FEED_PUBLISHER_DID: bsky.account().did });
      expect(again.code, again.stderr).toBe(0);
      const unchanged = JSON.parse(again.stdout) as typeof created;
      expect(unchanged.feeds).toEqual(created.feeds.map((feed) => ({ ...feed, outcome: 'unchanged' })));
      expect(again.stderr).not.toContain('BLUESKY_FEED_PUBLISHER_DID=');
      expect(await feedRecords()).toEqual(records);
      expect(await head()).toEqual(commit);

      const renamed = await publishFeed(['--display-name', 'lorebook: new stories']);
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(renamed.stdout.trim().split('\n')).toEqual([
        `publish-feed: updated ${uriOf('lorebook')}`,
        ...RKEYS.slice(1).map((rkey) => `publish-feed: unchanged ${uriOf(rkey)}`),
      ]);
      const after = await feedRecords();
      expect(after).toHaveLength(RKEYS.length);
      const main = records.find((record) => record.uri === uriOf('lorebook'));
      expect(after.find((record) => record.uri === uriOf('lorebook'))?.value).toMatchObject({
        displayName: 'lorebook: new stories',
        createdAt: main?.value.createdAt,
      });
      expect(after.filter((record) => record.uri !== uriOf('lorebook'))).toEqual(
        records.filter((record) => record.uri !== uriOf('lorebook')),
      );
    },
    CLI_TEST_MS,
  );

  it(
    'publishes one feed per LOREBOOK_FEED_TAGS tag, and a record from before acceptsInteractions is updated to say it',
    async () => {
      const publisher = {
        service: bsky.proxy().url,
        identifier: bsky.account().handle,
        appPassword: bsky.account().appPassword,
        requestTimeoutMs: 10_000,
      };
      const old = await publishFeedRecord(publisher, 'tag-rust', {
        did: 'did:web:lorebook.test',
        displayName: 'lorebook #rust',
        description: 'old words',
        acceptsInteractions: false,
      });
      const run = await publishFeed(['--json'], { LOREBOOK_FEED_TAGS: 'rust' });
      expect(run.code, run.stderr).toBe(0);
      const { feeds } = JSON.parse(run.stdout) as { feeds: Array<{ feed: string; outcome: string; uri: string }> };
      expect(feeds.map((feed) => feed.feed)).toEqual(['main', 'tag:rust', 'needs-reproducers']);
      expect(feeds.find((feed) => feed.feed === 'tag:rust')).toMatchObject({ outcome: 'updated', uri: old.uri });
      expect((await feedRecords()).find((record) => record.uri === old.uri)?.value).toMatchObject({ acceptsInteractions: true });
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
    '--help names every feed it publishes and the settings it reads, and exits 0 without signing in',
    async () => {
      const help = await publishFeed(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('usage: npm run bsky:publish-feed');
      expect(help.stdout).toMatch(/one per tag in\s+LOREBOOK_FEED_TAGS at tag-<tag>, and "needs reproducers" at needs-repro/);
      expect(help.stdout).toContain('LOREBOOK_FEED_TAGS');
      expect(help.stdout).toContain('acceptsInteractions');
      expect(help.stderr).not.toContain('signing in');
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
