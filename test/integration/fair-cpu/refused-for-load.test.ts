// Refusals for load against DynamoDB Local (docs/design.md#fair-cpu): a call whose caller already holds
// its share of the workers or the re-encoder is refused rate_limited with retry_after_ms before
// anything is parsed or decoded, and writes nothing; a full day of images refuses a new one before
// decoding it; check_capability reads plain text past a story's 64 KiB.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCapability } from '../../../src/app/check-capability.ts';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { DAILY_IMAGE_UPLOADS } from '../../../src/domain/image/image-limits.ts';
import { type CpuSlots, createCpuSlots, defaultCpuSettings } from '../../../src/offload/cpu-slots.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { GIF, pictureOf } from '../../helpers/images.ts';
import { SPIN } from '../../helpers/offload-tasks.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('fair-cpu-refusals');
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');

/** One worker, one job per caller at a time and none waiting: the smallest share there is. */
const slots: CpuSlots = createCpuSlots({ ...defaultCpuSettings(), workers: 1, perCaller: 1, perCallerWaiting: 0 });
afterAll(() => slots.offload.close());
const ctxOf = (cpuCaller?: string): AppContext => ({ ...app.ctx(), cpu: slots, ...(cpuCaller === undefined ? {} : { cpuCaller }) });

describe('a call refused for load', () => {
  it('a publish while its account already holds its worker share is rate_limited with retry_after_ms, and writes nothing', {
    timeout: 120_000,
  }, async () => {
    const ctx = ctxOf(`account:${alice.account}`);
    // The account's one job: a parse that holds the worker until the test closes it.
    const holding = slots.offload.run(SPIN(120_000), 60_000, ctx.cpuCaller).catch(() => undefined);
    const before = await app.allItems();
    const error = await refusal(publishStory(ctx, alice, { markdown: storyTitled('Refused while the worker is held') }));
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, details: { reason: 'cpu_share' } });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(await app.allItems()).toEqual(before);
    await slots.offload.close();
    await holding;
  });

  it("a write with no markdown is refused rate_limited while its account holds its worker share: its secret scan is the caller's, not the process's", {
    timeout: 120_000,
  }, async () => {
    // Slots of its own: the test above closed the file's workers.
    const own: CpuSlots = createCpuSlots({ ...defaultCpuSettings(), workers: 1, perCaller: 1, perCallerWaiting: 0 });
    const ctx: AppContext = { ...app.ctx(), cpu: own, cpuCaller: `account:${carol.account}` };
    const holding = own.offload.run(SPIN(120_000), 60_000, ctx.cpuCaller).catch(() => undefined);
    const before = await app.allItems();
    // No such story: a scan charged to the process instead would let the call through to not_found.
    const error = await refusal(reportReproduction(ctx, carol, { slug: 'no-such-story', result: 'worked', note: 'It ran.' }));
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, details: { reason: 'cpu_share' } });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(await app.allItems()).toEqual(before);
    await own.offload.close();
    await holding;
  });

  it('a second upload of an account while its first re-encodes is refused before decoding, stores nothing, and is stored once the first is done', {
    timeout: 120_000,
  }, async () => {
    const ctx = ctxOf();
    let release: () => void = () => {};
    const first = slots.reencodes.run(`account:${bob.account}`, 20_000, () => new Promise<void>((resolve) => (release = resolve)));
    const before = await app.allItems();
    const files = app.imageFiles();
    const picture = await pictureOf(11);
    const error = await refusal(storeImage(ctx, bob, { bytes: picture, type: 'image/png', opId: undefined }));
    expect(error).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_share' } });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(await app.allItems()).toEqual(before);
    expect(app.imageFiles()).toEqual(files);
    release();
    await first;
    await expect(storeImage(ctx, bob, { bytes: picture, type: 'image/png', opId: undefined })).resolves.toMatchObject({
      type: 'image/png',
    });
  });

  it('a full day refuses a new image before decoding it: bytes that are no image are answered rate_limited, not validation_failed', async () => {
    app.freeze();
    const now = app.ctx().store.now();
    await app.ctx().store.client.send(
      new PutCommand({
        TableName: app.ctx().store.tableName,
        Item: {
          PK: `IMGDAY#${carol.account}`,
          SK: new Date(now).toISOString().slice(0, 10),
          hashes: new Set(Array.from({ length: DAILY_IMAGE_UPLOADS }, (_, index) => `${index}`.padStart(64, '0'))),
          expires_at: Math.floor(now / 1000) + 172_800,
        },
      }),
    );
    const before = await app.allItems();
    const error = await refusal(storeImage(ctxOf(), carol, { bytes: GIF, type: 'image/png', opId: undefined }));
    expect(error).toMatchObject({ code: 'rate_limited', details: { limit: DAILY_IMAGE_UPLOADS } });
    expect(await app.allItems()).toEqual(before);
  });
});

describe('check_capability reads plain text up to its documented size', () => {
  it('120 KB of plain text (past a story\'s 64 KiB) is scanned as text, not refused as "The story is N bytes"', {
    timeout: 60_000,
  }, async () => {
    const text = 'Run the tests, then read the log.\n'.repeat(3_600);
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024);
    const report = await checkCapability(app.ctx(), undefined, { text });
    expect(report.scanned_as).toBe('text');
  });
});
