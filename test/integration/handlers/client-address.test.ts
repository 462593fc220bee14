// Whom the anonymous rate limit counts, through the real handlers/http.ts behind synthetic
// Function URL events, on DynamoDB Local, with the origin secret read by the real Secrets Manager
// client from a FAKE Secrets Manager (AWS is not reachable from here). Behind the stack's
// CloudFront distribution the viewer is CloudFront-Viewer-Address, but only on a request carrying
// the origin secret: a caller reaching the Function URL directly with X-Forwarded-For or
// CloudFront-Viewer-Address of its choosing is still counted under its own source IP.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../../handlers/client-address.ts';
import { createHttpHandler } from '../../../handlers/http.ts';
import { type FakeSecretsManager, startFakeSecretsManager } from '../../helpers/fake-secrets-manager.ts';
import { FUNCTION_URL, functionUrlFetch } from '../../helpers/function-url.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('client-address');
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:lorebook-origin-AbCdEf';
const SECRET = 'origin-secret-now-0123456789abcdef0123456789abcdef';
/** A CloudFront edge's address: what the Function URL sees as the source of every proxied request. */
const EDGE = '130.176.0.10';
let secrets: FakeSecretsManager;

beforeAll(async () => {
  secrets = await startFakeSecretsManager(SECRET);
});
afterAll(async () => {
  await secrets?.close();
});
// The handler's EMF lines: not what this file reads.
beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

function lambda(options: { behindCdn?: boolean; limit?: number } = {}) {
  const logs: string[] = [];
  const handler = createHttpHandler({
    env: {
      LOREBOOK_DDB_ENDPOINT: testEndpoint(),
      LOREBOOK_TABLE: table.tableName,
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: String(options.limit ?? 1000),
      ...(options.behindCdn === false ? {} : { LOREBOOK_ORIGIN_SECRET_ID: SECRET_ARN }),
    },
    secrets: secrets.client(),
    log: (line) => logs.push(line),
  });
  /** One anonymous GET /v1/stories from `sourceIp` with these headers. */
  const call = (sourceIp: string, headers: Record<string, string> = {}) =>
    functionUrlFetch(handler, { sourceIp })(`${FUNCTION_URL}/v1/stories`, { headers });
  return { call, logs };
}

/** The anonymous calls the table counted for `address`, over every window. */
async function counted(address: string): Promise<number> {
  const output = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `RATE#ip:${address}` },
    }),
  );
  return (output.Items ?? []).reduce((sum, item) => sum + Number(item.count), 0);
}

const spoofs = (i: number): Record<string, string> => ({
  'x-forwarded-for': `198.51.100.${i}`,
  'x-real-ip': `198.51.100.${i}`,
  [VIEWER_ADDRESS_HEADER]: `198.51.100.${i}:4${i}000`,
});

describe('a direct caller cannot choose the address it is counted under', () => {
  it('X-Forwarded-For and CloudFront-Viewer-Address without the origin secret are ignored: every call counts under the source IP', async () => {
    const { call } = lambda();
    for (let i = 1; i <= 4; i += 1) expect((await call('192.0.2.1', spoofs(i))).status).toBe(200);
    expect(await counted('192.0.2.1')).toBe(4);
    for (let i = 1; i <= 4; i += 1) expect(await counted(`198.51.100.${i}`)).toBe(0);
  });

  it('a wrong origin secret (or an empty one) is no better than none', async () => {
    const { call } = lambda();
    for (const wrong of ['guess', `${SECRET}x`, SECRET.slice(0, -1), ''])
      expect((await call('192.0.2.2', { ...spoofs(21), [ORIGIN_SECRET_HEADER]: wrong })).status).toBe(200);
    expect(await counted('192.0.2.2')).toBe(4);
    expect(await counted('198.51.100.21')).toBe(0);
  });

  it('without a custom domain (no LOREBOOK_ORIGIN_SECRET_ID), even the right secret changes nothing', async () => {
    const { call } = lambda({ behindCdn: false });
    expect((await call('192.0.2.3', { ...spoofs(31), [ORIGIN_SECRET_HEADER]: SECRET })).status).toBe(200);
    expect(await counted('192.0.2.3')).toBe(1);
    expect(await counted('198.51.100.31')).toBe(0);
  });

  it('so spoofing does not escape the limit: at a limit of 1 a minute, four calls with four spoofed addresses get 429s', async () => {
    const { call } = lambda({ limit: 1 });
    const startMs = Date.now();
    const statuses: number[] = [];
    for (let i = 41; i <= 44; i += 1) statuses.push((await call('192.0.2.4', spoofs(i))).status);
    // One allowed per clock minute the calls touched (two if they straddle a minute's end).
    const windows = Math.floor(Date.now() / 60_000) - Math.floor(startMs / 60_000) + 1;
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(windows);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(4 - windows);
  });
});

describe('behind CloudFront, with the origin secret', () => {
  it("each viewer is counted under CloudFront-Viewer-Address, not the edge's address", async () => {
    const { call } = lambda();
    for (const viewer of ['203.0.113.51:40001', '203.0.113.52:40002', '2001:db8::53:40003'])
      expect((await call(EDGE, { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: viewer })).status).toBe(200);
    expect(await counted('203.0.113.51')).toBe(1);
    expect(await counted('203.0.113.52')).toBe(1);
    expect(await counted('2001:db8::53')).toBe(1);
    expect(await counted(EDGE)).toBe(0);
  });

  it('X-Forwarded-For sent through CloudFront is still ignored: the viewer address is the one CloudFront set', async () => {
    const { call } = lambda();
    await call(EDGE, { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.61:5000', 'x-forwarded-for': '198.51.100.61' });
    expect(await counted('203.0.113.61')).toBe(1);
    expect(await counted('198.51.100.61')).toBe(0);
  });

  it('a viewer address that is not ip:port falls back to the source IP', async () => {
    const { call } = lambda();
    for (const viewer of ['not-an-ip:80', '203.0.113.71', ''])
      await call(EDGE.replace(/10$/, '71'), { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: viewer });
    expect(await counted('130.176.0.71')).toBe(3);
  });

  it('after a rotation both the new value and the previous one are accepted, read once per container', async () => {
    const NEW = 'origin-secret-rotated-fedcba9876543210fedcba98765432';
    secrets.set(NEW);
    secrets.setPrevious(SECRET);
    try {
      const { call } = lambda();
      const before = secrets.reads();
      await call(EDGE, { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.81:1' });
      await call(EDGE, { [ORIGIN_SECRET_HEADER]: NEW, [VIEWER_ADDRESS_HEADER]: '203.0.113.82:1' });
      expect(await counted('203.0.113.81')).toBe(1);
      expect(await counted('203.0.113.82')).toBe(1);
      // AWSCURRENT and AWSPREVIOUS, at the first event only.
      expect(secrets.reads() - before).toBe(2);
    } finally {
      secrets.set(SECRET);
      secrets.setPrevious(undefined);
    }
  });

  it('while the secret cannot be read, every call counts under its source IP, and the next call reads again', async () => {
    secrets.set(SECRET, { fail: 1 });
    const { call, logs } = lambda();
    expect((await call('192.0.2.9', { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.91:1' })).status).toBe(200);
    expect(await counted('192.0.2.9')).toBe(1);
    expect(await counted('203.0.113.91')).toBe(0);
    expect(logs.join('\n')).toContain(`could not read the origin secret ${SECRET_ARN}`);
    await call('192.0.2.9', { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.91:1' });
    expect(await counted('203.0.113.91')).toBe(1);
  });
});
