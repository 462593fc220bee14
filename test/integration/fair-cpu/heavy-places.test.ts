// Heavy work of every kind shares one bound (docs/design.md#fair-cpu): on two workers, a heavy
// scan and an image re-encode never run at once, so one core stays for the thread serving
// requests. Through the real offload workers, sharp and DynamoDB Local.
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { type CpuSlots, createCpuSlots, defaultCpuSettings } from '../../../src/offload/cpu-slots.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { pictureOf } from '../../helpers/images.ts';
import { SPIN } from '../../helpers/offload-tasks.ts';

const app = useAppFixture('fair-cpu-heavy-places');
const uploader = caller('uploader');

// A wait bound past what a loaded machine takes to start a worker and run the scan: the promise here is the order, not the bound.
const slots: CpuSlots = createCpuSlots({ ...defaultCpuSettings(), workers: 2, maxWaitMs: 60_000 });
afterAll(() => slots.offload.close());
const ctx = (): AppContext => ({ ...app.ctx(), cpu: slots, cpuCaller: `account:${uploader.account}` });

/** A scan that holds its worker for 1.5 s, marked heavy as a large text's is. */
const HEAVY_SCAN = { ...SPIN(30_000), heavy: () => true };

describe('heavy places shared by the workers and the re-encoder', () => {
  it("an upload sent while a stranger's heavy scan runs is re-encoded after the scan, not beside it, and is stored", {
    timeout: 120_000,
  }, async () => {
    const picture = await pictureOf(21);
    const finished: string[] = [];
    const scan = slots.offload.run(HEAVY_SCAN, 1_500, 'ip:scanner').then(() => finished.push('scan'));
    // The scan took the heavy place when it was queued, before its worker even started.
    const upload = storeImage(ctx(), uploader, { bytes: picture, type: 'image/png', opId: undefined }).then((stored) => {
      finished.push('upload');
      return stored;
    });
    const [, stored] = await Promise.all([scan, upload]);
    expect(finished).toEqual(['scan', 'upload']);
    expect(stored).toMatchObject({ type: 'image/png' });
  });
});
