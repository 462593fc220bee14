// Image bytes -> the bytes lorebook stores (docs/design.md#images), with sharp. The type is judged
// by the bytes twice: the magic numbers first (sniffImageType), then sharp's own reading of the
// header, which must agree. sharp is told the most pixels it may decode (limitInputPixels), so a
// small file that claims a huge canvas is refused before anything is allocated, and any decoder
// warning (a truncated file) fails the image. The output is re-encoded in the same type, turned
// upright by its EXIF orientation first, scaled to fit MAX_IMAGE_SIDE, kept under MAX_IMAGE_BYTES, and written without any
// metadata: sharp keeps none unless asked (no EXIF, GPS, XMP, IPTC; colour converted to sRGB and
// the ICC profile dropped). The same input and settings give the same bytes, so the content
// hash of the output names one image however often it is sent.
// sharp is loaded on the first upload, not at start: it is a native module (~100 ms to load),
// and only this path needs it. Its work runs on libuv's thread pool, off the event loop.
import type { Sharp } from 'sharp';
import { LorebookError } from '../../domain/errors.ts';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, MAX_INPUT_PIXELS } from '../../domain/image/image-limits.ts';
import { IMAGE_TYPES, type ImageType, sniffImageType } from '../../domain/image/image-type.ts';

export interface EncodedImage {
  data: Uint8Array;
  type: ImageType;
  width: number;
  height: number;
}

const SHARP_FORMATS: Readonly<Record<string, ImageType>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

let sharpModule: Promise<typeof import('sharp')> | undefined;
/**
 * No two uploads run the same operation, so libvips' operation cache would only hold memory; and
 * one libvips thread per image, so a re-encode holds one core, not all of them (docs/design.md#fair-cpu).
 */
const loadSharp = (): Promise<typeof import('sharp')> =>
  (sharpModule ??= import('sharp').then((module) => {
    module.default.cache(false);
    module.default.concurrency(1);
    return module;
  }));

/**
 * The stored form of an upload, or validation_failed naming what is wrong with the bytes. Callers
 * run it in a slot of the re-encode queue (upload-image.ts, cpu-slots.ts): a 12-megapixel photo
 * takes ~200 MB of libvips buffers while it is decoded and scaled (test/bench/image-upload.ts), so
 * parallel uploads wait their turn instead of adding up.
 */
export async function reencodeImage(bytes: Uint8Array, declared: ImageType): Promise<EncodedImage> {
  const sniffed = sniffImageType(bytes);
  if (sniffed === undefined) throw notAnImage();
  if (sniffed !== declared) {
    throw badImage(`The body is ${sniffed} but was sent as ${declared}.`, `Send it with Content-Type (or type) ${sniffed}.`);
  }
  const { default: sharp } = await loadSharp();
  const input = (): Sharp => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning', pages: 1 });
  const metadata = await input()
    .metadata()
    .catch((error: unknown) => {
      throw unreadable(error);
    });
  if (SHARP_FORMATS[metadata.format] !== sniffed) throw notAnImage();
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) {
    throw badImage(
      `The image is ${metadata.width} × ${metadata.height} pixels, more than the ${MAX_INPUT_PIXELS / 1_000_000} megapixels lorebook decodes.`,
      `Scale it down (the stored image is at most ${MAX_IMAGE_SIDE} px on its longest side anyway) and upload it again.`,
    );
  }
  const pipeline = input().rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
  const encoded = await encodeAs(pipeline, sniffed)
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw unreadable(error);
    });
  // A palette PNG is stored as true colour, so a 4 MB input can come out larger than any upload may be.
  if (encoded.data.byteLength > MAX_IMAGE_BYTES) {
    throw badImage(
      `Re-encoded, the image would be ${(encoded.data.byteLength / 1024 / 1024).toFixed(1)} MiB, more than the ${MAX_IMAGE_BYTES / 1024 / 1024} MiB an image may be.`,
      'Send it as JPEG or WebP, or with fewer pixels.',
    );
  }
  return { data: new Uint8Array(encoded.data), type: sniffed, width: encoded.info.width, height: encoded.info.height };
}

function encodeAs(pipeline: Sharp, type: ImageType): Sharp {
  if (type === 'image/png') return pipeline.png({ compressionLevel: 9 });
  if (type === 'image/jpeg') return pipeline.jpeg({ quality: 85 });
  return pipeline.webp({ quality: 85 });
}

function notAnImage(): LorebookError {
  return badImage(
    'The body is not a PNG, JPEG or WebP image (judged by its bytes, not its Content-Type).',
    `Send the bytes of a ${IMAGE_TYPES.join(', ')} file; SVG, GIF, HTML and other files are not accepted.`,
  );
}

function unreadable(error: unknown): LorebookError {
  const reason = error instanceof Error ? error.message.slice(0, 200) : 'it could not be decoded';
  return badImage(`The image could not be read: ${reason}.`, 'Send a complete, undamaged PNG, JPEG or WebP file.', error);
}

function badImage(message: string, fix: string, cause?: unknown): LorebookError {
  return new LorebookError('validation_failed', message, { details: { fields: { '(body)': fix } }, cause });
}
