// Where a story's `image:` loads from on its page, and whether it may be its card image. The
// page shows any http(s) image as the author wrote it (the browser fetches it, as it would in the
// narrative), and lorebook's own image path made absolute. The card (og:image, twitter:image)
// names only lorebook's own images, so an unfurler never fetches a URL a stranger chose — the
// same rule the Bluesky announcer follows for its thumbnail (src/outbox/announce-thumb.ts).
import { imageUrl, ownImage } from '../../domain/image/image-name.ts';
import { isHttpUrl } from './page-format.ts';

/** The image's src on the page, or undefined when the story has none the page may show. */
export function storyImageSrc(image: string | undefined, baseUrl: string): string | undefined {
  if (image === undefined) return undefined;
  const own = ownImage(image, baseUrl);
  if (own !== undefined) return imageUrl(baseUrl, own);
  return isHttpUrl(image) ? image : undefined;
}

/** The absolute URL of the story's card image: only one of lorebook's own images. */
export function cardImageUrl(image: string | undefined, baseUrl: string): string | undefined {
  const own = image === undefined ? undefined : ownImage(image, baseUrl);
  return own === undefined ? undefined : imageUrl(baseUrl, own);
}
