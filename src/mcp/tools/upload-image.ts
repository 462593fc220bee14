// upload_image: an image for a story, stored by lorebook (src/app/images/upload-image.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  DAILY_LIMIT_TEXT,
  UPLOAD_IMAGE_TOOL,
  uploadImageInputSchema,
  uploadImageOutputSchema,
} from '../../app/images/upload-image.contract.ts';
import { defineTool } from '../tool.ts';

export const uploadImageTool = defineTool({
  name: UPLOAD_IMAGE_TOOL,
  title: 'Upload an image for a story',
  description: [
    "Stores a PNG, JPEG or WebP image (at most 5 MiB, base64 in `data`) and answers its lorebook `url`, to use as a story's `image:` or as ![alt](url) in its narrative. Needs a token.",
    'The key is the image itself: it is re-encoded without its metadata (EXIF, GPS and the rest are removed) and named by the sha256 of the stored bytes, so sending the same image again answers the same url and stores nothing new.',
    `At most ${DAILY_LIMIT_TEXT} per account per UTC day; the same image again does not count twice.`,
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    "Do not call it for an image already on the web that the story may simply link, or for screenshots of text: put text in the story's markdown.",
  ].join('\n'),
  inputSchema: uploadImageInputSchema,
  outputSchema: uploadImageOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/images/upload-image.ts')).uploadImage(ctx, signedIn(caller), args);
  },
});
