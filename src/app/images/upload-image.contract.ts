// upload_image's contract: its name, its described input (MCP: the image as base64) and its
// answer. POST /v1/images takes the raw bytes instead and answers the same schema.
import { z } from 'zod';
import { DAILY_IMAGE_UPLOADS, MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from '../../domain/image/image-limits.ts';
import { IMAGE_TYPES } from '../../domain/image/image-type.ts';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';
import { type Outcome, replayedField } from '../contract/replayed.ts';

export const UPLOAD_IMAGE_TOOL = 'upload_image';

/** base64 of MAX_IMAGE_BYTES: 4 characters per 3 bytes, padded. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

const imageType = z.enum(IMAGE_TYPES, { error: `Use one of ${IMAGE_TYPES.join(', ')}.` });

export const uploadImageInputSchema = describedObject(
  {
    data: z.string().max(MAX_IMAGE_BASE64_CHARS, { error: `The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB.` }),
    type: imageType,
    op_id: z.string().optional(),
  },
  {
    data: `The image file's bytes, base64-encoded (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB of image). PNG, JPEG or WebP; judged by the bytes.`,
    type: `${IMAGE_TYPES.join(' | ')}: what the bytes are (they must agree).`,
    op_id: OP_ID_DESCRIPTION,
  },
);

export const uploadImageOutputSchema = z.object({
  url: z.string().describe("The image's address on lorebook: use it as a story's `image:` or in the narrative as ![alt](url)."),
  sha256: z.string().describe('The sha256 of the stored bytes (after re-encoding): the image is named by it.'),
  width: z.number().int().describe(`Stored width in pixels (at most ${MAX_IMAGE_SIDE}).`),
  height: z.number().int().describe(`Stored height in pixels (at most ${MAX_IMAGE_SIDE}).`),
  bytes: z.number().int().describe('Size of the stored image.'),
  type: imageType.describe('The stored type: the type that was sent.'),
  replayed: replayedField,
});

export type ImageOutcome = Outcome<typeof uploadImageOutputSchema>;

/** How the daily limit reads in descriptions and refusals. */
export const DAILY_LIMIT_TEXT = `${DAILY_IMAGE_UPLOADS} distinct images`;
