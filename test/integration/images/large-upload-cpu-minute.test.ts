// A large upload of an account whose minute of CPU is spent (docs/design.md#admission, #fair-cpu):
// refused `cpu_time` before a byte of its body is read, with nothing stored, where before its 4 MB
// were read first and refused after. Through the real HTTP app over DynamoDB Local; the body is a
// stream that counts what the server pulled from it.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import { createCpuSlots, defaultCpuSettings } from '../../../src/offload/cpu-slots.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { largeNoisePicture } from '../../helpers/images.ts';
import { pulledBody, slicesOf } from '../../helpers/pulled-body.ts';

const app = useAppFixture('large-upload-cpu-minute', { rateLimitPerMinute: 1_000_000 });
const BASE = 'http://lorebook.test';

/** The picture as a body of 64 KiB a pull, the pulls counted. */
const countedBody = (bytes: Buffer) => pulledBody(slicesOf(bytes, 65_536));

/** A body that hands out its first 64 KiB and then nothing until `finish()`: a call that holds its account's turn. */
function heldBody(bytes: Buffer): { body: ReadableStream<Uint8Array>; finish: () => void } {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let sent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!sent) {
          sent = true;
          return controller.enqueue(bytes.subarray(0, 65_536));
        }
        await finished;
        controller.enqueue(bytes.subarray(65_536));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, finish };
}

/** The HTTP app over this suite's table with CPU slots of its own (a second of CPU an account a minute), and an upload through it. */
function appWithMinutes() {
  const cpu = createCpuSlots({ ...defaultCpuSettings(), accountMsPerMinute: 1_000 });
  const ctx: AppContext = { ...app.ctx(), cpu };
  const hono = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl: BASE, allowedOrigins: [] });
  const upload = async (token: string, body: ReadableStream<Uint8Array>, length: number): Promise<Response> =>
    hono.request(
      new Request(`${BASE}/v1/images`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { host: 'lorebook.test', authorization: `Bearer ${token}`, 'content-type': 'image/png', 'content-length': String(length) },
      } as RequestInit),
    );
  return { cpu, ctx, upload };
}

describe("a large upload while the account's minute of CPU is spent", () => {
  it('is refused cpu_time (429, retry_after_ms) with its body unread and nothing stored; an account with room is read and stored', async () => {
    const { cpu, ctx, upload } = appWithMinutes();
    const spent = await createToken(ctx, { handle: 'minute-spent', expiresInSeconds: 3600 });
    const fresh = await createToken(ctx, { handle: 'minute-fresh', expiresInSeconds: 3600 });
    cpu.minutes?.charge(`account:${spent.account}`, 1_000);
    const picture = await largeNoisePicture();

    const before = (await app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));
    const files = app.imageFiles();
    const refusedBody = countedBody(picture);
    const refused = await upload(spent.token, refusedBody.body, picture.byteLength);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 'rate_limited',
      retry_after_ms: expect.any(Number),
      details: { reason: 'cpu_time' },
    });
    expect(refusedBody.pulls()).toBe(0);
    expect((await app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'))).toEqual(before);
    expect(app.imageFiles()).toEqual(files);

    const readBody = countedBody(picture);
    const stored = await upload(fresh.token, readBody.body, picture.byteLength);
    expect(stored.status).toBe(201);
    expect(readBody.pulls()).toBeGreaterThan(picture.byteLength / 65_536);
    expect(app.imageFiles()).toHaveLength(files.length + 1);
  });

  it('is asked before it waits (refused at once, not after the call holding the turn) and again when its turn comes (refused then, unread)', async () => {
    const { cpu, ctx, upload: uploadAs } = appWithMinutes();
    const account = await createToken(ctx, { handle: 'minute-spent-meanwhile', expiresInSeconds: 3600 });
    const picture = await largeNoisePicture();
    const upload = (body: ReadableStream<Uint8Array>): Promise<Response> => uploadAs(account.token, body, picture.byteLength);
    const holder = heldBody(picture);
    const holding = upload(holder.body);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waitingBody = countedBody(picture);
    const waiting = upload(waitingBody.body);
    await new Promise((resolve) => setTimeout(resolve, 200));
    cpu.minutes?.charge(`account:${account.account}`, 1_000);

    // Arriving now: refused at once, while the turn is still held.
    const arriving = upload(countedBody(picture).body);
    const early = await Promise.race([
      arriving.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 3000)),
    ]);
    expect(early).toBe('answered');
    expect(await (await arriving).json()).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_time' } });

    // Waiting since before: refused when its turn comes, its body unread.
    holder.finish();
    await holding;
    const refused = await waiting;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_time' } });
    expect(waitingBody.pulls()).toBe(0);
  });
});
