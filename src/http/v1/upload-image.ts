// POST /v1/images: upload_image with the image's raw bytes as the body (Content-Type image/png,
// image/jpeg or image/webp). One body is one image: no multipart, so there is no boundary parser
// in front of the decoder and the op record's fingerprint is the bytes themselves. The body is
// read with a hard cap of 5 MiB, refused the moment it passes it.
import { signedIn } from '../../app/caller/signed-in.ts';
import { imageReceiver } from '../../app/images/received-image.ts';
import { UPLOAD_IMAGE_TOOL, uploadImageOutputSchema } from '../../app/images/upload-image.contract.ts';
import { validationFailed } from '../../domain/errors.ts';
import { imageTooLarge, MAX_IMAGE_BYTES } from '../../domain/image/image-limits.ts';
import { IMAGE_TYPES, isImageType } from '../../domain/image/image-type.ts';
import { mediaType, readBodyChunks } from '../body.ts';
import { withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const uploadImageRoute = defineRoute({
  method: 'POST',
  path: '/v1/images',
  operationId: 'uploadImage',
  summary: `Upload an image for a story (${UPLOAD_IMAGE_TOOL})`,
  description:
    "The body is the image file itself, at most 5 MiB, sent with its Content-Type (image/png, image/jpeg or image/webp; the bytes must be that type). It is re-encoded without metadata (EXIF, GPS, XMP, ICC), scaled to fit 4096 px, and named by the sha256 of the stored bytes: the same image again answers the same url and counts once against the account's 30 images a day. Use the answered `url` as a story's `image:` or as ![alt](url).",
  binaryBody: { types: IMAGE_TYPES, description: 'The image file, at most 5 MiB.' },
  headers: ['Idempotency-Key'],
  success: { status: 201, description: 'The stored image.', schema: uploadImageOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const account = signedIn(caller);
    const type = mediaType(c.req.header('content-type'));
    if (!isImageType(type)) {
      throw validationFailed(`The body is sent as "${type || 'no content type'}"; this endpoint takes the image file itself.`, {
        'Content-Type': `Send the file's bytes with Content-Type ${IMAGE_TYPES.join(', ')} (no multipart, no JSON).`,
      });
    }
    // Hashed as it arrives: no 4 MB pass on the serving thread, and the chunks are joined only if this upload re-encodes.
    const receiver = imageReceiver();
    await readBodyChunks(c.req.raw, MAX_IMAGE_BYTES, imageTooLarge, receiver.take);
    const bytes = receiver.received();
    const { op_id: opId } = withOpId(c, {});
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const { storeImage } = await import('../../app/images/upload-image.ts');
    return writeAnswer(c, await storeImage(ctx, account, { bytes, type, opId: opId as string | undefined }), 201);
  },
});
