// Images on the real server (hono on loopback over DynamoDB Local, a real image directory):
// POST /v1/images with the file as the body, upload_image through the MCP SDK client, and
// GET /i/<sha256>.<ext> with the headers a browser and a cache rely on.

import { request as httpRequest } from 'node:http';
import exifr from 'exifr';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../src/domain/image/image-limits.ts';
import { MAX_BODY_BYTES } from '../../src/http/body.ts';
import { htmlBehindPngHeader, jpegWithGps, largeNoisePicture, noisePicture, pictureOf, sixMegabytes } from '../helpers/images.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';

const server = useLorebookServer('e2e-images');
let token = '';

beforeAll(async () => {
  token = (await server.token('image-uploader')).token;
});

/** Every stored item but the rate windows, which every call moves. */
const storedItems = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

const post = (body: Uint8Array | string, type: string, headers: Record<string, string> = {}) =>
  server.fetch('/v1/images', { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': type, ...headers } });

interface Uploaded {
  url: string;
  sha256: string;
  width: number;
  height: number;
  bytes: number;
  type: string;
}

describe('POST /v1/images', () => {
  it('answers 201 {url, sha256, width, height, bytes, type}; the url serves the stored bytes, without their GPS', async () => {
    const response = await post(await jpegWithGps(), 'image/jpeg');
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Uploaded;
    expect(answer).toEqual({
      url: `${server.baseUrl()}/i/${answer.sha256}.jpg`,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 120,
      height: 80,
      bytes: expect.any(Number),
      type: 'image/jpeg',
    });
    const served = await fetch(answer.url);
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(bytes.byteLength).toBe(answer.bytes);
    expect(await exifr.gps(bytes)).toBeUndefined();
  });

  it('an Idempotency-Key replay answers the first answer, the original status and Idempotent-Replayed: true', async () => {
    const picture = await pictureOf(300);
    const first = await post(picture, 'image/png', { 'idempotency-key': 'e2e-image-op' });
    const replay = await post(picture, 'image/png', { 'idempotency-key': 'e2e-image-op' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual({ ...((await first.json()) as object), replayed: true });
  });

  it('the same image twice, or 16 times at once, over HTTP: one blob, one count, every answer the same', async () => {
    const picture = await pictureOf(305);
    const files = server.app.imageFiles();
    const first = await (await post(picture, 'image/png')).json();
    const answers = await Promise.all(Array.from({ length: 16 }, async () => (await post(picture, 'image/png')).json()));
    for (const answer of answers) expect(answer).toEqual(first);
    const { sha256 } = first as Uploaded;
    expect(server.app.imageFiles()).toEqual([...files, `${sha256}.png`].sort());
    const days = (await storedItems()).filter((item) => String(item.PK).startsWith('IMGDAY#'));
    expect(days.flatMap((day) => day.hashes as string[]).filter((hash) => hash === sha256)).toHaveLength(1);
  });

  it('a 6 MB body is 413 payload_too_large, refused at the cap; nothing is stored', async () => {
    const before = await storedItems();
    const files = server.app.imageFiles();
    const response = await post(sixMegabytes(), 'image/png');
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large', details: { limit_bytes: MAX_IMAGE_BYTES } });
    expect(await storedItems()).toEqual(before);
    expect(server.app.imageFiles()).toEqual(files);
  });

  it('a PNG header on an HTML body is 422 validation_failed; nothing is stored', async () => {
    const before = await storedItems();
    const response = await post(htmlBehindPngHeader(), 'image/png');
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'validation_failed' });
    expect(await storedItems()).toEqual(before);
  });

  it('multipart, JSON or SVG as the Content-Type is 422 naming Content-Type; without a token it is 401', async () => {
    for (const type of ['multipart/form-data; boundary=x', 'application/json', 'image/svg+xml', 'image/gif']) {
      const response = await post('x', type);
      expect(response.status, type).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 'validation_failed',
        details: { fields: { 'Content-Type': expect.any(String) } },
      });
    }
    const anonymous = await server.fetch('/v1/images', {
      method: 'POST',
      body: await pictureOf(301),
      headers: { 'content-type': 'image/png' },
    });
    expect(anonymous.status).toBe(401);
  });
});

/** An upload sent in two parts over a socket of its own: headers and `head` bytes now, the rest on `finish()`. */
function uploadInParts(url: string, bearer: string, bytes: Buffer, head: number) {
  let finish = (): void => {};
  const answered = new Promise<{ status: number; body: Record<string, unknown>; at: number }>((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'image/png', 'content-length': String(bytes.byteLength) },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), at: performance.now() }),
      );
    });
    request.on('error', reject);
    request.write(bytes.subarray(0, head));
    finish = () => void request.end(bytes.subarray(head));
  });
  return { answered, finish: () => finish() };
}

/**
 * The waiting call has not answered while `holding` keeps the account's turn (given the time to: a
 * re-encode of this size takes well under it), and answers once `holding` is sent whole and has
 * answered 201. Answers the waiting call's answer.
 */
async function answeredOnlyAfter<T extends { at: number }>(holding: ReturnType<typeof uploadInParts>, waiting: Promise<T>): Promise<T> {
  const early = await Promise.race([waiting.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 3000))]);
  expect(early).toBe('waiting');
  const released = performance.now();
  holding.finish();
  const [firstAnswer, secondAnswer] = await Promise.all([holding.answered, waiting]);
  expect(firstAnswer.status).toBe(201);
  expect(secondAnswer.at).toBeGreaterThan(released);
  expect(secondAnswer.at).toBeGreaterThanOrEqual(firstAnswer.at);
  return secondAnswer;
}

describe("an account's bodies past 512 KiB are read one call at a time", () => {
  it("a second large upload of the account waits, unread, until the first has answered; another account's goes meanwhile", async () => {
    const [first, second, others] = await Promise.all([largeNoisePicture(), largeNoisePicture(), largeNoisePicture()]);
    expect(Math.min(first.byteLength, second.byteLength, others.byteLength)).toBeGreaterThan(MAX_BODY_BYTES);
    // The first takes the account's turn and holds it: part of its body sent, the rest held back.
    const holding = uploadInParts(`${server.baseUrl()}/v1/images`, token, first, 600 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waiting = post(second, 'image/png').then(async (response) => ({
      status: response.status,
      body: await response.json(),
      at: performance.now(),
    }));
    const other = await server.fetch('/v1/images', {
      method: 'POST',
      body: others,
      headers: { authorization: `Bearer ${(await server.token('image-uploader-other')).token}`, 'content-type': 'image/png' },
    });
    expect(other.status).toBe(201);
    const secondAnswer = await answeredOnlyAfter(holding, waiting);
    expect(secondAnswer.status).toBe(201);
  });

  it("an upload_image over MCP past 512 KiB waits behind the account's HTTP upload, and answers once that one has", async () => {
    const [first, second] = await Promise.all([largeNoisePicture(), largeNoisePicture()]);
    const data = second.toString('base64');
    expect(data.length).toBeGreaterThan(MAX_BODY_BYTES);
    const holding = uploadInParts(`${server.baseUrl()}/v1/images`, token, first, 600 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const client = await server.mcp(token);
    const waiting = client
      .callTool({ name: 'upload_image', arguments: { data, type: 'image/png' } })
      .then((result) => ({ answer: answerOf(result) as Uploaded, at: performance.now() }));
    const secondAnswer = await answeredOnlyAfter(holding, waiting);
    expect(secondAnswer.answer).toMatchObject({ width: 500, height: 500, type: 'image/png' });
  });

  it('the same large image 16 times at once: served one after another, every answer the same, one blob and one count', async () => {
    const picture = await largeNoisePicture();
    const files = server.app.imageFiles();
    const answers = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const response = await post(picture, 'image/png');
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201]));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    const { sha256 } = answers[0]?.body as Uploaded;
    expect(server.app.imageFiles()).toEqual([...files, `${sha256}.png`].sort());
    const days = (await storedItems()).filter((item) => String(item.PK).startsWith('IMGDAY#'));
    expect(days.flatMap((day) => day.hashes as string[]).filter((hash) => hash === sha256)).toHaveLength(1);
  });
});

describe('upload_image over MCP', () => {
  it('takes the image base64 in `data` and answers the same as POST /v1/images for the same bytes', async () => {
    const picture = await pictureOf(302, 'webp');
    const client = await server.mcp(token);
    const viaMcp = answerOf(
      await client.callTool({ name: 'upload_image', arguments: { data: picture.toString('base64'), type: 'image/webp' } }),
    );
    const viaHttp = await (await post(picture, 'image/webp')).json();
    expect(viaMcp).toEqual(viaHttp);
  });

  it('one op_id over HTTP (the body hashed as its chunks arrive) and then over MCP (the bytes hashed whole) for the same image is one call: MCP answers the replay', async () => {
    const picture = await noisePicture();
    expect(picture.byteLength).toBeGreaterThan(256 * 1024);
    const viaHttp = await post(picture, 'image/png', { 'idempotency-key': 'e2e-image-both-surfaces' });
    expect(viaHttp.status).toBe(201);
    const client = await server.mcp(token);
    const viaMcp = answerOf(
      await client.callTool({
        name: 'upload_image',
        arguments: { data: picture.toString('base64'), type: 'image/png', op_id: 'e2e-image-both-surfaces' },
      }),
    );
    expect(viaMcp).toEqual({ ...((await viaHttp.json()) as object), replayed: true });
  });

  it("a 4 MiB file (5.6 MB of base64) passes the /mcp body cap with a token; the bytes after the PNG's end are not stored", async () => {
    const picture = await pictureOf(303, 'png', { width: 1200, height: 1200 });
    const padded = Buffer.concat([picture, Buffer.alloc(4 * 1024 * 1024 - picture.length, 0x41)]);
    const client = await server.mcp(token);
    const answer = answerOf(
      await client.callTool({ name: 'upload_image', arguments: { data: padded.toString('base64'), type: 'image/png' } }),
    ) as Uploaded;
    expect(answer).toMatchObject({ width: 1200, height: 1200, type: 'image/png' });
    expect(answer.bytes).toBeLessThan(picture.length * 2);
  });

  it('without a token the /mcp body stays capped at 512 KiB: 413 before anything runs', async () => {
    const response = await server.fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'upload_image', arguments: { data: 'A'.repeat(600_000), type: 'image/png' } },
      }),
    });
    expect(response.status).toBe(413);
  });

  it('more than 5 MiB of image is payload_too_large, as a tool result', async () => {
    const client = await server.mcp(token);
    const answer = refusalOf(
      await client.callTool({ name: 'upload_image', arguments: { data: 'A'.repeat(7_000_000), type: 'image/png' } }),
    );
    expect(answer.code).toBe('payload_too_large');
  });
});

describe('GET /i/<sha256>.<ext>', () => {
  let uploaded: Uploaded;
  beforeAll(async () => {
    uploaded = (await (await post(await pictureOf(304), 'image/png')).json()) as Uploaded;
  });

  it('serves the type, a year of immutable cache, nosniff, a sandboxing CSP and the hash as ETag; If-None-Match is 304', async () => {
    const response = await fetch(uploaded.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('etag')).toBe(`"${uploaded.sha256}"`);
    expect(Number(response.headers.get('content-length'))).toBe(uploaded.bytes);
    const again = await fetch(uploaded.url, { headers: { 'if-none-match': `"${uploaded.sha256}"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('an unknown hash, the wrong extension, or any name that is not 64 lowercase hex is 404', async () => {
    const paths = [
      `/i/${'0'.repeat(64)}.png`,
      `/i/${uploaded.sha256}.jpg`,
      `/i/${uploaded.sha256.toUpperCase()}.png`,
      `/i/${uploaded.sha256}.png.html`,
      '/i/..%2f..%2fpackage.json',
      '/i/%2e%2e%2fpackage.json',
      '/i/....%2f%2fetc%2fpasswd.png',
      `/i/${uploaded.sha256.slice(0, 63)}.png`,
    ];
    for (const path of paths) {
      const response = await server.fetch(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).not.toMatch(/^image\//);
    }
  });
});
