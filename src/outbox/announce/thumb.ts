// The link card's thumbnail: a story's `image:` only when it is one of lorebook's own images,
// read from lorebook's image store (src/app/images/read-image.ts) — never fetched from a URL, so
// the announcer cannot be pointed at a stranger's server. An image Bluesky would refuse as a
// thumbnail (over its 1 MB blob limit), an unknown image or a store that does not answer is no
// thumbnail: the post goes out with a text card rather than not at all.
import type { AppContext } from '../../app/context/app-context.ts';
import { readImage } from '../../app/images/read-image.ts';
import { ownImage } from '../../domain/image/image-name.ts';
import type { StoryPost } from './port.ts';

/** Bluesky's limit on an external embed's thumb blob (app.bsky.embed.external, maxSize). */
export const MAX_THUMB_BYTES = 1_000_000;

export async function storyThumb(
  ctx: AppContext,
  image: string | undefined,
  baseUrl: string,
  log: (line: string) => void,
): Promise<StoryPost['thumb']> {
  const name = image === undefined ? undefined : ownImage(image, baseUrl);
  if (name === undefined) return undefined;
  try {
    const stored = await readImage(ctx, name);
    if (stored === undefined || stored.data.byteLength > MAX_THUMB_BYTES) {
      log(`announce: no link-card thumbnail from ${name.file} (${stored === undefined ? 'not stored' : 'over 1 MB'})`);
      return undefined;
    }
    return { data: stored.data, mimeType: stored.type };
  } catch (error) {
    log(`announce: no link-card thumbnail from ${name.file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
