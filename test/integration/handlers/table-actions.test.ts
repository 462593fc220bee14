// What each handler really sends to DynamoDB, recorded by a proxy in front of DynamoDB Local
// while it does its whole job, against what the synthesized stack grants its role: every action
// used is granted (nothing would be AccessDenied on AWS) and every action granted is used
// (nothing is granted "just in case"). The same for the image bucket, recorded by a FAKE S3
// (test/helpers/fake-s3.ts) the handlers are pointed at. And a sweeper run with nothing logged
// since the last snapshot asks the search bucket for nothing.

import { JoseKey } from '@atproto/oauth-client-node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DynamoDBRecord, ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../../handlers/http.ts';
import { createStreamHandler } from '../../../handlers/stream.ts';
import { createSweeperHandler } from '../../../handlers/sweeper.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { redactStory } from '../../../src/app/redact-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { recordSearchChanges } from '../../../src/app/search/record-search-changes.ts';
import { runSnapshotJob } from '../../../src/app/search/search-snapshot-job.ts';
import { imageBlobsInS3 } from '../../../src/store/image/blobs-s3.ts';
import { searchSnapshotsInS3 } from '../../../src/store/search/search-snapshots-s3.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { type DynamoDbRecorder, startDynamoDbRecorder } from '../../helpers/dynamodb-recorder.ts';
import { type FakeS3, startFakeS3 } from '../../helpers/fake-s3.ts';
import { type FakeSecretsManager, startFakeSecretsManager } from '../../helpers/fake-secrets-manager.ts';
import { FUNCTION_URL, functionUrlFetch } from '../../helpers/function-url.ts';
import { pictureOf } from '../../helpers/images.ts';
import { batchesOf, readStreamRecords } from '../../helpers/local-stream.ts';
import { answerOf } from '../../helpers/lorebook-server.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';
import { actionsOf, logicalId, roleStatements, synthesize } from '../../unit/infra/synth.ts';

const app = useAppFixture('lambda-table-actions', {}, { stream: true });
const bluesky = useBluesky();
let recorder: DynamoDbRecorder;
let secrets: FakeSecretsManager;
let signInKey: FakeSecretsManager;
let s3: FakeS3;
/** The search snapshot bucket: a second fake, so each bucket's calls are checked against its own grants. */
let searchS3: FakeS3;
const clients: Client[] = [];
const { json } = synthesize({ blueskyIdentifier: 'lorebook.example.com', blueskyOAuthClient: 'production' });
const tableId = logicalId(json, 'AWS::DynamoDB::Table', 'Table');

beforeAll(async () => {
  recorder = await startDynamoDbRecorder(testEndpoint());
  secrets = await startFakeSecretsManager(bluesky.account().appPassword);
  signInKey = await startFakeSecretsManager(JSON.stringify((await JoseKey.generate(['ES256'], 'k1')).privateJwk));
  s3 = await startFakeS3();
  searchS3 = await startFakeS3('lorebook-search-test');
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await recorder?.close();
  await secrets?.close();
  await signInKey?.close();
  await s3?.close();
  await searchS3?.close();
});

/** The role's DynamoDB grants in the recorder's notation: `table dynamodb:X`, `index dynamodb:Query`. */
function grantedTo(functionPrefix: string): string[] {
  const tableArn = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
  const indexArn = JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']] });
  return roleStatements(json, logicalId(json, 'AWS::Lambda::Function', functionPrefix))
    .flatMap((statement) => {
      const resource = JSON.stringify(statement.Resource);
      const where = resource === tableArn ? 'table' : resource === indexArn ? 'index' : undefined;
      return where === undefined ? [] : actionsOf(statement).map((action) => `${where} ${action}`);
    })
    .sort();
}

/** The role's grants on one bucket's objects (the image bucket unless told). */
function s3GrantedTo(functionPrefix: string, bucket: 'ImageBucket' | 'SearchBucket' = 'ImageBucket'): string[] {
  const bucketId = logicalId(json, 'AWS::S3::Bucket', bucket);
  return roleStatements(json, logicalId(json, 'AWS::Lambda::Function', functionPrefix))
    .filter((statement) => JSON.stringify(statement.Resource).includes(bucketId))
    .flatMap(actionsOf)
    .filter((action) => action.startsWith('s3:'))
    .sort();
}

/** The path of one of lorebook's own images, stored in the fake bucket: announcing a story with it reads the bucket. */
async function ownImagePath(seed: number): Promise<string> {
  const images = imageBlobsInS3({ bucket: s3.bucket, endpoint: s3.url });
  const { url } = await storeImage({ ...app.ctx(), images }, caller('imager'), {
    bytes: await pictureOf(seed),
    type: 'image/png',
    opId: undefined,
  });
  return new URL(url).pathname;
}

const withImage = (markdown: string, image: string): string =>
  markdown.replace('status: n/a\n', `status: n/a\nimage: ${image}\nimage_alt: A picture\n`);

const env = (): NodeJS.ProcessEnv => ({
  LOREBOOK_DDB_ENDPOINT: recorder.url,
  LOREBOOK_TABLE: app.ctx().store.tableName,
  LOREBOOK_BASE_URL: BASE_URL,
  BLUESKY_SERVICE: bluesky.proxy().url,
  BLUESKY_IDENTIFIER: bluesky.account().handle,
  LOREBOOK_BLUESKY_SECRET_ID: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:lorebook-bluesky',
  LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000',
  LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000',
  LOREBOOK_IMAGE_BUCKET: s3.bucket,
  LOREBOOK_IMAGE_S3_ENDPOINT: s3.url,
  LOREBOOK_SEARCH_BUCKET: searchS3.bucket,
  LOREBOOK_SEARCH_S3_ENDPOINT: searchS3.url,
  // The sweeper's snapshot job writes after every change: its role's PutObject is exercised.
  LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES: '0',
});
const searchSnapshots = () => searchSnapshotsInS3({ bucket: searchS3.bucket, endpoint: searchS3.url });
const quiet = { log: () => {} };
let seen = 0;
async function newStreamRecords(): Promise<DynamoDBRecord[]> {
  const all = await readStreamRecords(testEndpoint(), app.ctx().store.client, app.ctx().store.tableName);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

/** The http function as the stack configures it with sign-in on: production client, key in its secret. */
const httpHandler = () =>
  createHttpHandler({
    env: {
      ...env(),
      LOREBOOK_BASE_URL: '',
      LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production',
      LOREBOOK_SIGN_IN_KEY_SECRET_ID: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:lorebook-sign-in-key',
    },
    secrets: signInKey.client(),
    ...quiet,
  });

async function mcp(token: string): Promise<Client> {
  const handler = httpHandler();
  const client = new Client({ name: 'lorebook-iam-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${FUNCTION_URL}/mcp`), {
      fetch: functionUrlFetch(handler),
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

describe("each function's role allows exactly the DynamoDB actions its handler sends", () => {
  // Some twenty calls through a fresh handler each: on a loaded machine this passes the default 30 s.
  it('http: every tool of the MCP surface, writes and reads, an OAuth client registration and a device-flow start', {
    timeout: 90_000,
  }, async () => {
    // A snapshot to start from: the http function's first search loads it (GetObject).
    await runSnapshotJob(app.ctx(), searchSnapshots());
    const alice = await mcp((await createToken(app.ctx(), { handle: 'alice', expiresInSeconds: 3600 })).token);
    const bob = await mcp((await createToken(app.ctx(), { handle: 'bob', expiresInSeconds: 3600 })).token);
    recorder.reset();
    s3.reset();
    searchS3.reset();
    const call = async (client: Client, name: string, args: Record<string, unknown>) =>
      answerOf(await client.callTool({ name, arguments: args }));
    const markdown = storyTitled('Every action the http role needs');
    const { slug } = (await call(alice, 'publish_story', { markdown, op_id: 'op-iam-publish' })) as { slug: string };
    await call(alice, 'publish_story', { markdown, op_id: 'op-iam-publish-again' });
    await call(bob, 'report_reproduction', { slug, result: 'worked' });
    await call(bob, 'report_check', { slug, result: 'has_problem' });
    await call(alice, 'edit_story', {
      slug,
      markdown: storyTitled('Every action the http role needs', { extra: 'Fixed.' }),
      kind: 'correction',
      note: 'The flag is --now.',
    });
    const { notifications } = (await call(alice, 'list_notifications', {})) as { notifications: { id: string }[] };
    await call(alice, 'mark_notifications_read', { ids: [notifications[0]?.id] });
    await call(bob, 'withdraw_reproduction', { slug });
    await call(alice, 'set_visibility', { slug, hidden: true });
    await call(alice, 'set_visibility', { slug, hidden: false });
    await call(bob, 'search_stories', { query: 'action' });
    await call(bob, 'get_story', { slug });
    const image = (await call(alice, 'upload_image', { data: (await pictureOf(500)).toString('base64'), type: 'image/png' })) as {
      url: string;
    };
    const http = functionUrlFetch(httpHandler());
    const served = await http(`${FUNCTION_URL}${new URL(image.url).pathname}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    // The feed (the indexes' Query): search no longer walks it, the list does.
    expect((await http(`${FUNCTION_URL}/v1/stories`)).status).toBe(200);
    const registered = await http(`${FUNCTION_URL}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'iam', redirect_uris: ['http://127.0.0.1:33420/callback'] }),
    });
    expect(registered.status).toBe(201);
    const device = await http(`${FUNCTION_URL}/v1/auth/device/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=iam',
    });
    expect(device.status).toBe(200);
    expect(recorder.actions()).toEqual(grantedTo('Http'));
    // Its one other AWS call, GetSecretValue on the sign-in key (the fake answers nothing else), is granted too.
    expect(signInKey.reads()).toBeGreaterThanOrEqual(1);
    expect(s3.actions()).toEqual(s3GrantedTo('Http'));
    expect(searchS3.actions()).toEqual(s3GrantedTo('Http', 'SearchBucket'));
    const others = roleStatements(json, logicalId(json, 'AWS::Lambda::Function', 'Http'))
      .flatMap(actionsOf)
      .filter((action) => !action.startsWith('dynamodb:') && !action.startsWith('s3:'));
    expect(others).toEqual(['secretsmanager:GetSecretValue']);
  });

  it('stream: a correction fanned out and a new story announced, its card thumbnail read from the bucket', async () => {
    const author = caller('carol');
    const image = await ownImagePath(501);
    const { slug } = await publishStory(app.ctx(), author, { markdown: withImage(storyTitled('Streamed for the role check'), image) });
    await reportReproduction(app.ctx(), caller('dave'), { slug, result: 'partial' });
    await editStory(app.ctx(), author, {
      slug,
      markdown: withImage(storyTitled('Streamed for the role check', { extra: 'Again.' }), image),
      kind: 'correction',
      note: 'Wrong port.',
    });
    const records = await newStreamRecords();
    const handler = createStreamHandler({ env: env(), secrets: secrets.client(), ...quiet });
    recorder.reset();
    s3.reset();
    for (const batch of batchesOf(records, 100)) expect(await handler({ Records: batch })).toEqual({ batchItemFailures: [] });
    expect(await bluesky.postsFor(slug)).toHaveLength(1);
    expect(recorder.actions()).toEqual(grantedTo('Stream'));
    expect(s3.actions()).toEqual(s3GrantedTo('Stream'));
  });

  it('sweeper: an announcement (its thumbnail read from the bucket) and an outbox event the stream never handled', async () => {
    const author = caller('erin');
    const image = await ownImagePath(502);
    const { slug } = await publishStory(app.ctx(), author, { markdown: withImage(storyTitled('Swept for the role check'), image) });
    await reportReproduction(app.ctx(), caller('frank'), { slug, result: 'worked' });
    await editStory(app.ctx(), author, {
      slug,
      markdown: withImage(storyTitled('Swept for the role check', { extra: 'Again.' }), image),
      kind: 'correction',
      note: 'Wrong host.',
    });
    // A redaction whose removed text showed its author's image: the sweeper Scans for other texts naming it and deletes it (DeleteObject).
    const uploader = caller('imager');
    const leaked = await ownImagePath(503);
    const { slug: redacted } = await publishStory(app.ctx(), uploader, {
      markdown: withImage(storyTitled('Redacted for the role check'), leaked),
    });
    await redactStory(app.ctx(), uploader, {
      slug: redacted,
      base_revision: 1,
      markdown: storyTitled('Redacted for the role check', { extra: 'No picture.' }),
    });
    // The search log says the story changed: the snapshot job loads the snapshot (GetObject) and writes the next (PutObject).
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    const handler = createSweeperHandler({ env: env(), secrets: secrets.client(), ...quiet });
    recorder.reset();
    s3.reset();
    searchS3.reset();
    const report = await handler({ id: 'iam', source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} } as ScheduledEvent);
    expect(report.search).toMatchObject({ from: 'snapshot', moved: true });
    expect(searchS3.actions()).toEqual(s3GrantedTo('Sweeper', 'SearchBucket'));
    expect(report.dispatch.notifications_created).toBeGreaterThanOrEqual(1);
    expect(report.redactions).toMatchObject({ events: 1, images_deleted: 1 });
    expect(report.announce?.outcomes.posted).toBeGreaterThanOrEqual(1);
    expect(recorder.actions()).toEqual(grantedTo('Sweeper'));
    expect(s3.actions()).toEqual(s3GrantedTo('Sweeper'));
  });

  it('sweeper: the next run, with nothing logged since, asks the search bucket for nothing (no snapshot loaded)', async () => {
    const handler = createSweeperHandler({ env: env(), secrets: secrets.client(), ...quiet });
    searchS3.reset();
    const report = await handler({ id: 'idle', source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} } as ScheduledEvent);
    expect(report.search).toEqual({ from: 'log', left: 0, stories: undefined, logEntries: 0, changed: 0, moved: false });
    expect(searchS3.actions()).toEqual([]);
  });
});
