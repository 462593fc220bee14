// `node test/bench/image-upload.ts`: what judging and re-encoding one upload costs
// (src/app/images/reencode-image.ts), against sha256 of the same bytes — the least any upload
// must do (read every byte once) — measured in the same run, alternating, so both see the same
// machine load. Shapes: a 12-megapixel camera JPEG (noisy, ~4 MB; scaled to 4096 px), a 4096 px
// PNG screenshot, and a decompression bomb (refused from its header). Prints medians, the ratio,
// and the process's peak RSS.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { reencodeImage } from '../../src/app/images/reencode-image.ts';
import type { ImageType } from '../../src/domain/image/image-type.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_IMAGE_ROUNDS ?? 10);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const noisy = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: { r: 90, g: 120, b: 150 }, noise: { type: 'gaussian', mean: 128, sigma: 18 } },
  });

const SHAPES: Record<string, { bytes: () => Promise<Buffer>; type: ImageType }> = {
  'camera JPEG, 4000 × 3000': { bytes: () => noisy(4000, 3000).jpeg({ quality: 80 }).toBuffer(), type: 'image/jpeg' },
  'screenshot PNG, 4096 × 2304': {
    bytes: () =>
      sharp({ create: { width: 4096, height: 2304, channels: 3, background: { r: 250, g: 250, b: 250 } } })
        .composite([
          { input: Buffer.from('<svg width="2000" height="900"><rect width="2000" height="900" fill="#336"/></svg>'), left: 40, top: 40 },
        ])
        .png()
        .toBuffer(),
    type: 'image/png',
  },
  'decompression bomb, 7000 × 7000 PNG (refused)': {
    bytes: () =>
      sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
        .png()
        .toBuffer(),
    type: 'image/png',
  },
};

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run().catch(() => undefined);
  return performance.now() - start;
}

const peakMiB = (): string => (process.resourceUsage().maxRSS / 1024).toFixed(0);
// The fixtures first (the bomb's own 147 MB canvas is the test's, not lorebook's), then the runs.
const inputs = await Promise.all(
  Object.entries(SHAPES).map(async ([name, shape]) => ({ name, type: shape.type, bytes: await shape.bytes() })),
);
const fixturePeak = peakMiB();
for (const { name, type, bytes } of inputs) {
  const encode: number[] = [];
  const hash: number[] = [];
  await reencodeImage(bytes, type).catch(() => undefined);
  for (let round = 0; round < ROUNDS; round += 1) {
    encode.push(await timed(() => reencodeImage(bytes, type)));
    hash.push(await timed(async () => createHash('sha256').update(bytes).digest('hex')));
  }
  const [e, h] = [percentile(encode, 50), percentile(hash, 50)];
  log(`${name} (${(bytes.length / 1024 / 1024).toFixed(2)} MiB): re-encode ${ms(e)} ms, sha256 ${ms(h)} ms, ratio ${ratio(e / h)}`);
}
log(`peak RSS ${fixturePeak} MiB after making the fixtures, ${peakMiB()} MiB after ${ROUNDS} re-encodes per shape`);
