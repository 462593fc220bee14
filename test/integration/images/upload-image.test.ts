// upload_image against DynamoDB Local and a real image directory: metadata stripped (checked
// with exifr), bad bytes refused with nothing stored, the daily limit, and the three twice-tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageReceiver, type ReceivedImage } from '../../../src/app/images/received-image.ts';
import { storeImage, uploadImage } from '../../../src/app/images/upload-image.ts';
import { DAILY_IMAGE_UPLOADS } from '../../../src/domain/image/image-limits.ts';
import { sharedCpuSlots } from '../../../src/offload/cpu-slots.ts';
import type { FairQueue } from '../../../src/offload/fair-queue.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import {
  decompressionBomb,
  GIF,
  htmlBehindPngHeader,
  jpegWithGps,
  paletteNoise,
  pictureOf,
  SVG,
  sixMegabytes,
  truncatedJpeg,
} from '../../helpers/images.ts';
import { refusal } from '../../helpers/refusal.ts';

const app = useAppFixture('upload-image');
const alice = caller('alice');
const bob = caller('bob');

const upload = (who: typeof alice, bytes: Buffer, type: 'image/png' | 'image/jpeg' | 'image/webp', opId?: string) =>
  storeImage(app.ctx(), who, { bytes, type, opId });

const stored = (file: string): Buffer => readFileSync(join(app.imageDir(), file));

describe('an uploaded image is re-encoded without its metadata', () => {
  it('a JPEG carrying GPS EXIF comes back without GPS or any EXIF (checked with exifr)', async () => {
    const original = await jpegWithGps();
    expect(await exifr.gps(original)).toMatchObject({ latitude: 51.5 });
    const answer = await upload(alice, original, 'image/jpeg');
    expect(answer).toMatchObject({ type: 'image/jpeg', width: 120, height: 80 });
    const bytes = stored(`${answer.sha256}.jpg`);
    expect(bytes.byteLength).toBe(answer.bytes);
    expect(await exifr.gps(bytes)).toBeUndefined();
    expect(await exifr.parse(bytes, true)).toBeUndefined();
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
  });

  it('an image turned by its EXIF orientation is stored upright, and larger than 4096 px is scaled to fit', async () => {
    const sideways = await sharp({ create: { width: 80, height: 40, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await upload(alice, sideways, 'image/jpeg')).toMatchObject({ width: 40, height: 80 });
    const wide = await pictureOf(7, 'png', { width: 5000, height: 1000 });
    expect(await upload(alice, wide, 'image/png')).toMatchObject({ width: 4096, height: 819 });
  });

  it('answers the url on the public base URL, named by the sha256 of the stored bytes', async () => {
    const answer = await upload(alice, await pictureOf(3, 'webp'), 'image/webp');
    const { createHash } = await import('node:crypto');
    expect(answer.sha256).toBe(
      createHash('sha256')
        .update(stored(`${answer.sha256}.webp`))
        .digest('hex'),
    );
    expect(answer.url).toBe(`${app.ctx().config.publicBaseUrl}/i/${answer.sha256}.webp`);
  });
});

describe('bad input gets a typed error and nothing is stored', () => {
  const cases: [string, () => Promise<Buffer> | Buffer, 'image/png' | 'image/jpeg', string][] = [
    ['a 6 MB file', sixMegabytes, 'image/png', 'payload_too_large'],
    ['a PNG header on an HTML body', htmlBehindPngHeader, 'image/png', 'validation_failed'],
    ['an SVG sent as PNG', () => SVG, 'image/png', 'validation_failed'],
    ['a GIF sent as PNG', () => GIF, 'image/png', 'validation_failed'],
    ['a PNG cut off inside its header', async () => (await pictureOf(11)).subarray(0, 60), 'image/png', 'validation_failed'],
    ['a JPEG cut off halfway through its picture', truncatedJpeg, 'image/jpeg', 'validation_failed'],
    ['a JPEG sent as PNG', () => pictureOf(12, 'jpeg'), 'image/png', 'validation_failed'],
    ['a decompression bomb (7000 × 7000 pixels in a few KB)', decompressionBomb, 'image/png', 'validation_failed'],
    ['a 4 MB palette PNG that would be stored as over 5 MiB', paletteNoise, 'image/png', 'validation_failed'],
  ];
  for (const [what, bytes, type, code] of cases) {
    it(`${what}: ${code}`, async () => {
      const before = await app.allItems();
      const files = app.imageFiles();
      const error = await refusal(upload(bob, await bytes(), type));
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(false);
      expect(await app.allItems()).toEqual(before);
      expect(app.imageFiles()).toEqual(files);
    });
  }

  it('MCP input that is not base64, or over 5 MiB of it, is refused before anything is decoded', async () => {
    const before = await app.allItems();
    expect((await refusal(uploadImage(app.ctx(), bob, { data: '<html>', type: 'image/png' }))).code).toBe('validation_failed');
    expect((await refusal(uploadImage(app.ctx(), bob, { data: 'A'.repeat(7_100_000), type: 'image/png' }))).code).toBe('payload_too_large');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('30 distinct images a day per account', () => {
  // Thirty uploads one after another, three store round trips each: minutes on a loaded DynamoDB Local.
  it('the 31st distinct upload of the day is rate_limited until midnight UTC, stores nothing, and the 30 can still be sent again', {
    timeout: 300_000,
  }, async () => {
    app.freeze();
    const carol = caller('carol');
    const pictures = await Promise.all(Array.from({ length: DAILY_IMAGE_UPLOADS + 1 }, (_, i) => pictureOf(100 + i)));
    const answers = [];
    for (const picture of pictures.slice(0, DAILY_IMAGE_UPLOADS)) answers.push(await upload(carol, picture, 'image/png'));
    const before = await app.allItems();
    const files = app.imageFiles();
    const error = await refusal(upload(carol, pictures[DAILY_IMAGE_UPLOADS] as Buffer, 'image/png'));
    expect(error.code).toBe('rate_limited');
    expect(error.retryable).toBe(true);
    const now = app.ctx().store.now();
    expect(now + (error.retryAfterMs ?? 0)).toBe((Math.floor(now / 86_400_000) + 1) * 86_400_000);
    expect(await app.allItems()).toEqual(before);
    expect(app.imageFiles()).toEqual(files);
    // An image already counted today is not a new one.
    expect(await upload(carol, pictures[0] as Buffer, 'image/png')).toEqual(answers[0]);
    // Another account has its own 30.
    await expect(upload(bob, pictures[DAILY_IMAGE_UPLOADS] as Buffer, 'image/png')).resolves.toMatchObject({ type: 'image/png' });
  });
});

describe('upload_image is safe to deliver twice', () => {
  const dayOf = async (account: string) =>
    (await app.allItems()).filter((item) => item.PK === `IMGDAY#${account}`).map((item) => item.hashes as string[]);

  it('the same image twice is one image: the same answer, one blob, one count, and the second writes nothing', async () => {
    const dave = caller('dave');
    const picture = await pictureOf(200);
    const first = await upload(dave, picture, 'image/png');
    const before = await app.state();
    const files = app.imageFiles();
    app.counter().reset();
    const second = await upload(dave, picture, 'image/png');
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(app.imageFiles()).toEqual(files);
    expect(await dayOf(dave.account)).toEqual([[first.sha256]]);
  });

  it('16 parallel uploads of one image store one blob and one record, count once, and all answer the same', {
    timeout: 120_000,
  }, async () => {
    const erin = caller('erin');
    const picture = await pictureOf(201);
    const files = app.imageFiles();
    const answers = await Promise.all(Array.from({ length: 16 }, () => upload(erin, picture, 'image/png')));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const sha = answers[0]?.sha256 as string;
    expect(app.imageFiles()).toEqual([...files, `${sha}.png`].sort());
    expect(await dayOf(erin.account)).toEqual([[sha]]);
    expect((await app.allItems()).filter((item) => item.PK === `IMAGE#${sha}`)).toHaveLength(1);
  });

  it('16 parallel uploads of one image as received in chunks: only an upload that re-encodes joins its bytes, and all answer as the image sent whole', {
    timeout: 120_000,
  }, async () => {
    const gina = caller('gina');
    const picture = await pictureOf(202);
    const chunks = [picture.subarray(0, 100), picture.subarray(100)];
    let joins = 0;
    const received = (): ReceivedImage => {
      const receiver = imageReceiver();
      for (const chunk of chunks) receiver.take(chunk);
      const image = receiver.received();
      const bytes = (): Uint8Array => {
        joins += 1;
        return image.bytes();
      };
      return { ...image, bytes };
    };
    // How many re-encodes ran: uploads arriving while one runs share it; one arriving after it ended starts another.
    const slots = app.ctx().cpu ?? sharedCpuSlots();
    let reencodes = 0;
    const reencodesCounted: FairQueue = {
      run: (who, budgetMs, start, job) => {
        reencodes += 1;
        return slots.reencodes.run(who, budgetMs, start, job);
      },
      clear: (error) => slots.reencodes.clear(error),
    };
    const ctx = { ...app.ctx(), cpu: { ...slots, reencodes: reencodesCounted } };
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => storeImage(ctx, gina, { bytes: received(), type: 'image/png', opId: undefined })),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(reencodes).toBeGreaterThan(0);
    expect(joins).toBe(reencodes);
    expect(await upload(gina, picture, 'image/png')).toEqual(answers[0]);
  });

  it('an op_id replay after a different upload returns the first answer and changes nothing', async () => {
    const frank = caller('frank');
    const picture = await pictureOf(202);
    const first = await upload(frank, picture, 'image/png', 'op-image-1');
    await upload(frank, await pictureOf(203), 'image/png');
    const before = await app.state();
    const files = app.imageFiles();
    const replay = await upload(frank, picture, 'image/png', 'op-image-1');
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(app.imageFiles()).toEqual(files);
  });

  it('the same op_id with another image is idempotency_key_reused and stores nothing', async () => {
    const gina = caller('gina');
    await upload(gina, await pictureOf(204), 'image/png', 'op-image-reused');
    const before = await app.allItems();
    const other = await pictureOf(205);
    const error = await refusal(upload(gina, other, 'image/png', 'op-image-reused'));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('the same image from two accounts is one blob and one record, counted once in each day', async () => {
    const picture = await pictureOf(206);
    const fromAlice = await upload(alice, picture, 'image/png');
    const files = app.imageFiles();
    const fromBob = await upload(bob, picture, 'image/png');
    expect(fromBob).toEqual(fromAlice);
    expect(app.imageFiles()).toEqual(files);
    const records = (await app.allItems()).filter((item) => item.PK === `IMAGE#${fromAlice.sha256}`);
    expect(records).toEqual([expect.objectContaining({ uploaded_by: alice.account, type: 'image/png' })]);
    expect((await dayOf(bob.account)).flat()).toContain(fromAlice.sha256);
  });
});
