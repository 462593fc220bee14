// The stream and sweeper functions announcing on a real atproto PDS on 127.0.0.1, with the app
// password read through the real Secrets Manager client from a FAKE Secrets Manager (a loopback
// server speaking GetSecretValue: AWS is not reachable here).
import type { DynamoDBRecord, ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSET_APP_PASSWORD } from '../../../handlers/bluesky-secret.ts';
import { createStreamHandler } from '../../../handlers/stream.ts';
import { createSweeperHandler } from '../../../handlers/sweeper.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { readItem } from '../../../src/store/read-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { type FakeSecretsManager, startFakeSecretsManager } from '../../helpers/fake-secrets-manager.ts';
import { batchesOf, readStreamRecords } from '../../helpers/local-stream.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('lambda-announce-handlers', {}, { stream: true });
const bluesky = useBluesky();
const alice = caller('alice');
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:lorebook-bluesky-AbCdEf';
let secrets: FakeSecretsManager;
let seen = 0;
const logs: string[] = [];

beforeAll(async () => {
  secrets = await startFakeSecretsManager(bluesky.account().appPassword);
});
afterAll(async () => {
  await secrets?.close();
});

const env = (): NodeJS.ProcessEnv => ({
  LOREBOOK_DDB_ENDPOINT: testEndpoint(),
  LOREBOOK_TABLE: app.ctx().store.tableName,
  LOREBOOK_BASE_URL: BASE_URL,
  BLUESKY_SERVICE: bluesky.proxy().url,
  BLUESKY_IDENTIFIER: bluesky.account().handle,
  LOREBOOK_BLUESKY_SECRET_ID: SECRET_ARN,
  LOREBOOK_ANNOUNCE_TIMEOUT_MS: '5000',
});
const deps = () => ({ env: env(), secrets: secrets.client(), log: (line: string) => void logs.push(line) });

const scheduled: ScheduledEvent = {
  version: '0',
  id: 'test',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: new Date().toISOString(),
  region: 'eu-west-1',
  resources: ['arn:aws:events:eu-west-1:123456789012:rule/SweepEveryMinute'],
  detail: {},
};

async function newStreamRecords(): Promise<DynamoDBRecord[]> {
  const all = await readStreamRecords(testEndpoint(), app.ctx().store.client, app.ctx().store.tableName);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

const publish = async (title: string): Promise<string> => (await publishStory(app.ctx(), alice, { markdown: storyTitled(title) })).slug;

describe('announcing from Lambda', () => {
  it('the stream function posts a newly published story once, also when the same records arrive twice; one secret read', async () => {
    const readsBefore = secrets.reads();
    const handler = createStreamHandler(deps());
    await newStreamRecords();
    const slug = await publish('Announced from the stream');
    const records = await newStreamRecords();
    for (let delivery = 0; delivery < 2; delivery += 1) {
      for (const batch of batchesOf(records, 100)) expect(await handler({ Records: batch })).toEqual({ batchItemFailures: [] });
    }
    const posts = await bluesky.postsFor(slug);
    expect(posts).toHaveLength(1);
    const meta = await readItem(app.ctx().store, storyKey(slug));
    expect(meta?.bsky_uri).toBe(posts[0]?.uri);
    // The stream function's own writes (claim, completion) come back as records: they change nothing.
    for (const batch of batchesOf(await newStreamRecords(), 100))
      expect(await handler({ Records: batch })).toEqual({ batchItemFailures: [] });
    expect(await bluesky.postsFor(slug)).toHaveLength(1);
    expect(secrets.reads() - readsBefore).toBe(1);
  });

  it('the sweeper posts what the stream never saw, reading the secret once across many invocations', async () => {
    const readsBefore = secrets.reads();
    const handler = createSweeperHandler(deps());
    const slug = await publish('Announced by the sweeper');
    const first = await handler(scheduled);
    expect(first.announce?.outcomes).toMatchObject({ posted: 1 });
    for (let run = 0; run < 4; run += 1) expect((await handler(scheduled)).announce?.due).toBe(0);
    expect(await bluesky.postsFor(slug)).toHaveLength(1);
    expect(secrets.reads() - readsBefore).toBe(1);
  });

  it("while the secret holds the stack's placeholder nothing is posted; once it is set, the next read after the recheck interval turns announcing on", async () => {
    secrets.set(UNSET_APP_PASSWORD);
    try {
      const readsBefore = secrets.reads();
      const handler = createSweeperHandler({ ...deps(), secretRecheckMs: 60_000 });
      const slug = await publish('Waits for its secret');
      expect((await handler(scheduled)).announce).toBeUndefined();
      expect((await handler(scheduled)).announce).toBeUndefined();
      expect(await bluesky.postsFor(slug)).toEqual([]);
      expect((await readItem(app.ctx().store, storyKey(slug)))?.GSI3PK).toBe('ANNOUNCE');
      expect(logs.some((line) => line.includes('still holds its placeholder'))).toBe(true);
      // Within the recheck interval the placeholder is believed: one read for both runs.
      expect(secrets.reads() - readsBefore).toBe(1);

      secrets.set(bluesky.account().appPassword);
      const eager = createSweeperHandler({ ...deps(), secretRecheckMs: 0 });
      secrets.set(UNSET_APP_PASSWORD);
      expect((await eager(scheduled)).announce).toBeUndefined();
      secrets.set(bluesky.account().appPassword);
      expect((await eager(scheduled)).announce?.outcomes).toMatchObject({ posted: 1 });
      expect(await bluesky.postsFor(slug)).toHaveLength(1);
    } finally {
      secrets.set(bluesky.account().appPassword);
    }
  });

  it('a failed secret read is not cached: the next invocation reads again and goes on', async () => {
    secrets.set(bluesky.account().appPassword, { fail: 1 });
    const readsBefore = secrets.reads();
    const handler = createSweeperHandler(deps());
    await expect(handler(scheduled)).rejects.toThrow();
    const report = await handler(scheduled);
    expect(report.announce).toBeDefined();
    await handler(scheduled);
    expect(secrets.reads() - readsBefore).toBe(2);
  });
});
