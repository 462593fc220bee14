// Refused oversized requests are held, not drained, through the real `npm start`
// (docs/design.md#admission, src/http/refusal-hold.ts): a 401 or 429 for a request whose body past
// 512 KiB, or a chunked body of no declared length, is unread is answered only after a hold (a 429
// at most its retry_after_ms, answering what is left of it; a 429 with any of its body unread is
// held too, a 401 under 512 KiB answered at once), with `Connection: close` and the body
// never read to its end; held sockets are capped per address and overall, past the cap closed
// unanswered; a caller with a live token is read and answered as before. Each case sends from
// loopback addresses of its own (npm start keys by peer).
import { type IncomingMessage, request } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { MAX_BODY_BYTES } from '../../src/http/body.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { sendFrom } from '../helpers/from-address.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const HOLD_MS = 5_000;
const PER_ADDRESS = 2;
const TOTAL = 3;
const ANONYMOUS_BUDGET = 5;
const MINUTE_MS = 60_000;
const app = useAppFixture('e2e-refusal-hold');
let server: NpmStart;
let token = '';

beforeAll(async () => {
  token = (await createToken(app.ctx(), { handle: 'uploader', expiresInSeconds: 3600 })).token;
  server = await startNpmStart({
    endpoint: testEndpoint(),
    table: app.ctx().store.tableName,
    env: {
      LOREBOOK_REFUSAL_HOLD_MS: String(HOLD_MS),
      LOREBOOK_REFUSAL_HOLD_PER_ADDRESS: String(PER_ADDRESS),
      LOREBOOK_REFUSAL_HOLD_TOTAL: String(TOTAL),
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: String(ANONYMOUS_BUDGET),
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

/** 7 MB: past the 512 KiB anyone may send, under /mcp's 7.5 MB cap for a live token. */
const OVERSIZED = Buffer.alloc(7 * 1024 * 1024, 0x61);
const WRITE_CHUNK = 64 * 1024;
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

interface Sent {
  /** The answer, or undefined when the connection closed without one. */
  answer: { status: number; headers: IncomingMessage['headers']; json: Record<string, unknown> } | undefined;
  /** Whether the operating system took the whole body (the server read it, or its buffers held the rest). */
  bodyWritten: boolean;
}

/**
 * A POST with its whole body, on a kept-alive connection, written 64 KiB at a time as the
 * connection takes it; settles once the connection lets the request go. The body counts as
 * written once the operating system took its last byte: a server that reads nothing stops it
 * after a few MB of socket buffers.
 */
function sendWhole(
  from: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  /** Sent chunked, with no Content-Length: the server cannot know how much is still to come. */
  chunked = false,
): Promise<Sent> {
  return new Promise((resolve) => {
    let answer: Sent['answer'];
    let taken = 0;
    let collected: Promise<void> = Promise.resolve();
    const outgoing = request(
      `${server.baseUrl}${path}`,
      { method: 'POST', headers: chunked ? headers : { ...headers, 'Content-Length': String(body.length) }, localAddress: from },
      (response) => {
        collected = (async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of response) chunks.push(chunk as Buffer);
          const text = Buffer.concat(chunks).toString('utf8');
          answer = { status: response.statusCode ?? 0, headers: response.headers, json: JSON.parse(text || '{}') };
        })().catch(() => undefined);
      },
    );
    // The server closing while the body is still being written: the answer (if any) was already read.
    outgoing.on('error', () => undefined);
    outgoing.on('close', () => void collected.then(() => resolve({ answer, bodyWritten: taken === body.length })));
    let offset = 0;
    const pump = (): void => {
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + WRITE_CHUNK);
        offset += chunk.length;
        const more = outgoing.write(chunk, (error) => {
          if (!error) taken += chunk.length;
        });
        if (!more) return void outgoing.once('drain', pump);
      }
      outgoing.end();
    };
    pump();
  });
}

const bogusMcp = (from: string, chunked = false): Promise<Sent> =>
  sendWhole(from, '/mcp', { ...MCP_HEADERS, Authorization: 'Bearer x' }, OVERSIZED, chunked);

/** A call that reads the store (a 404 for a story that does not exist), like the count a refusal waits for. */
const storeRead = async (from: string): Promise<number> =>
  (await sendFrom(from, `${server.baseUrl}/v1/stories/2020-01-01-no-such-story`)).status;

/**
 * Spends `from`'s anonymous budget with store reads in a window with room for a hold after it, and
 * answers the first 429's retry_after_ms.
 */
async function spendAddressBudget(from: string): Promise<number> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < HOLD_MS + 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  for (let index = 0; index <= ANONYMOUS_BUDGET; index += 1) {
    const answer = await sendFrom(from, `${server.baseUrl}/v1/stories/2020-01-01-no-such-story`);
    if (answer.status === 429) return Number(answer.json().retry_after_ms);
  }
  return 0;
}

describe('a refused request with an unread body past 512 KiB, or of no declared length, is held, then answered and closed', () => {
  it.each([
    { body: 'declared 7 MB', chunked: false, from: '127.0.0.20', reader: '127.0.0.21' },
    { body: 'chunked, with no Content-Length', chunked: true, from: '127.0.0.27', reader: '127.0.0.28' },
  ])(
    'a bogus token on /mcp, the body $body: 401 only after five store reads sent after it, Connection: close, the body never read to its end',
    async ({ chunked, from, reader }) => {
      let answeredEarly = false;
      const held = bogusMcp(from, chunked).then((sent) => {
        answeredEarly = true;
        return sent;
      });
      for (let index = 0; index < 5; index += 1) expect(await storeRead(reader)).toBe(404);
      expect(answeredEarly).toBe(false);
      const { answer, bodyWritten } = await held;
      expect(answer?.status).toBe(401);
      expect(answer?.headers.connection).toBe('close');
      expect(answer?.json).toMatchObject({ error: { data: { code: 'unauthenticated', retryable: false } } });
      expect(bodyWritten).toBe(false);
    },
  );

  it('past the address budget: 429 held at most retry_after_ms, answering what is left of it (the message says the same)', async () => {
    const from = '127.0.0.22';
    const before = await spendAddressBudget(from);
    expect(before).toBeGreaterThan(HOLD_MS);
    const { answer } = await sendWhole(from, '/v1/images', { 'Content-Type': 'image/png' }, OVERSIZED);
    expect(answer?.status).toBe(429);
    expect(answer?.headers.connection).toBe('close');
    const after = answer?.json as { code: string; retryable: boolean; retry_after_ms: number; detail: string };
    expect(after).toMatchObject({ code: 'rate_limited', retryable: true });
    // Held HOLD_MS (a timer never fires early; 5 ms for rounding): what is left is at least that much less.
    expect(after.retry_after_ms).toBeLessThanOrEqual(before - HOLD_MS + 5);
    expect(after.detail).toContain(`(${after.retry_after_ms} ms)`);
  });
});

describe('a 429 is held whatever the size of its unread body; a 401 only past 512 KiB', () => {
  /** 240 KB: under the 512 KiB anyone may send, so a refusal past the count would otherwise be read in full. */
  const UNDER_LIMIT = Buffer.alloc(240 * 1024, 0x61);

  it('past the address budget, a 240 KB scan: 429 held at most retry_after_ms, Connection: close', async () => {
    const from = '127.0.0.29';
    const before = await spendAddressBudget(from);
    expect(before).toBeGreaterThan(HOLD_MS);
    const { answer } = await sendWhole(from, '/v1/capability', { 'Content-Type': 'text/markdown' }, UNDER_LIMIT);
    expect(answer?.status).toBe(429);
    expect(answer?.headers.connection).toBe('close');
    const after = answer?.json as { code: string; retry_after_ms: number };
    expect(after.code).toBe('rate_limited');
    expect(after.retry_after_ms).toBeLessThanOrEqual(before - HOLD_MS + 5);
  });

  it('a bogus token on /mcp with a 240 KB body: 401 at once, the connection kept (a token that just expired is not held)', async () => {
    const { answer } = await sendWhole('127.0.0.30', '/mcp', { ...MCP_HEADERS, Authorization: 'Bearer x' }, UNDER_LIMIT);
    expect(answer?.status).toBe(401);
    expect(answer?.headers.connection).not.toBe('close');
  });
});

describe('held sockets are capped; past the cap a new one is closed unanswered', () => {
  it(`three at once from one address: ${PER_ADDRESS} answered 401, one closed unanswered`, async () => {
    const sent = await Promise.all([1, 2, 3].map(() => bogusMcp('127.0.0.23')));
    expect(sent.filter((one) => one.answer?.status === 401)).toHaveLength(PER_ADDRESS);
    expect(sent.filter((one) => one.answer === undefined)).toHaveLength(1);
  });

  it(`two at once from each of two addresses: ${TOTAL} answered 401 in all, one closed unanswered`, async () => {
    const sent = await Promise.all(['127.0.0.24', '127.0.0.24', '127.0.0.25', '127.0.0.25'].map((from) => bogusMcp(from)));
    expect(sent.filter((one) => one.answer?.status === 401)).toHaveLength(TOTAL);
    expect(sent.filter((one) => one.answer === undefined)).toHaveLength(1);
  });
});

describe('a caller with a live token is not held', () => {
  it('an image over 512 KiB with a live token is read whole and stored (201), the connection kept', async () => {
    const photo = await sharp({
      create: { width: 700, height: 700, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(photo.length).toBeGreaterThan(MAX_BODY_BYTES);
    const { answer, bodyWritten } = await sendWhole(
      '127.0.0.26',
      '/v1/images',
      { Authorization: `Bearer ${token}`, 'Content-Type': 'image/jpeg' },
      photo,
    );
    expect(answer?.status).toBe(201);
    expect(answer?.headers.connection).not.toBe('close');
    expect(bodyWritten).toBe(true);
  });
});
