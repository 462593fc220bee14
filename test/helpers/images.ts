// Image fixtures made in the test with sharp: small distinct pictures, a JPEG carrying GPS EXIF,
// files that only pretend to be images.
import sharp from 'sharp';

/** A small picture, different for every seed (its colour), so each is a distinct image. */
export function pictureOf(seed: number, format: 'png' | 'jpeg' | 'webp' = 'png', size = { width: 64, height: 48 }): Promise<Buffer> {
  const background = { r: (seed * 37) % 256, g: (seed * 91) % 256, b: (seed * 53 + 17) % 256 };
  return sharp({ create: { ...size, channels: 3, background } })
    [format]()
    .toBuffer();
}

/** A JPEG from a phone: camera make, GPS position (51.5 N, 0.1167 W), a date. */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCam', Model: 'Pocket 9' },
      IFD2: { DateTimeOriginal: '2026:11:30 09:15:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

/** An HTML page behind a PNG signature: a header that lies about the rest. */
export function htmlBehindPngHeader(): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('<html><script>alert(1)</script></html>'),
  ]);
}

export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

/** The first half of a noisy JPEG: its header is whole, its picture stops in the middle. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await sharp({
    create: { width: 256, height: 256, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** A 1×1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A small file that claims a huge canvas: 7000 × 7000 of one colour compresses to a few KB. */
export function decompressionBomb(): Promise<Buffer> {
  return sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A 4 MB palette PNG of noise: stored as true colour it would be over 6 MB. */
export function paletteNoise(): Promise<Buffer> {
  return sharp({
    create: { width: 2000, height: 2000, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .png({ palette: true, colours: 256, dither: 0, effort: 1, compressionLevel: 1 })
    .toBuffer();
}

/** A photo-sized PNG of noise (~420 KB at 400 px, over many reads of a socket), stored as it is; each one different. */
export function noisePicture(side = 400): Promise<Buffer> {
  return sharp({
    create: { width: side, height: side, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .png()
    .toBuffer();
}

/** A PNG of noise past the 512 KiB a body is read without its account's turn (~650 KB), each one different. */
export const largeNoisePicture = (): Promise<Buffer> => noisePicture(500);

/** More than 5 MiB: noise does not compress. */
export function sixMegabytes(): Buffer {
  const bytes = Buffer.alloc(6 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 2654435761) >>> 24;
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
