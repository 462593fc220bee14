// What one image upload may cost (docs/api.md § Images): bytes in, pixels decoded, pixels kept,
// uploads per account per day.
import { type LorebookError, payloadTooLarge } from '../errors.ts';

/** The largest upload: 5 MiB of image bytes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The refusal of an image over MAX_IMAGE_BYTES, for both surfaces. */
export function imageTooLarge(): LorebookError {
  return payloadTooLarge(`The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB. Nothing was stored.`, {
    limit_bytes: MAX_IMAGE_BYTES,
  });
}

/**
 * The most pixels a decoder is allowed to allocate for one input (sharp's limitInputPixels):
 * 40 megapixels covers any camera photo (8000 × 5000), while a small file that claims
 * 100 000 × 100 000 pixels (a decompression bomb) is refused before it is decoded.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/** The longest side an image is stored with; larger images are scaled down to fit, never up. */
export const MAX_IMAGE_SIDE = 4096;

/** Distinct images one account may upload in one UTC day. */
export const DAILY_IMAGE_UPLOADS = 30;
