// Where a story's `image:` shows on its page, and whether it may be its card image. lorebook's own
// image loads from its path (the page's `img-src 'self'`); an image on another site is a link to
// it, never fetched by the reader's browser (design.md#slugs-dates-images). The card (og:image, twitter:image) names
// only lorebook's own images, so an unfurler never fetches a URL a stranger chose — the same rule
// the Bluesky announcer follows for its thumbnail (src/outbox/announce/thumb.ts).
import { IMAGE_PATH_PREFIX, imageUrl, ownImage } from '../../domain/image/image-name.ts';
import { isHttpUrl } from './page-format.ts';

export type StoryImage = { kind: 'own'; src: string } | { kind: 'elsewhere'; href: string; host: string };

/** The story's image as the page shows it, or undefined when it has none the page may show. */
export function storyImage(image: string | undefined, baseUrl: string): StoryImage | undefined {
  if (image === undefined) return undefined;
  const own = ownImage(image, baseUrl);
  if (own !== undefined) return { kind: 'own', src: `${IMAGE_PATH_PREFIX}${own.file}` };
  return isHttpUrl(image) ? { kind: 'elsewhere', href: image, host: new URL(image).host } : undefined;
}

/** The absolute URL of the story's card image: only one of lorebook's own images. */
export function cardImageUrl(image: string | undefined, baseUrl: string): string | undefined {
  const own = image === undefined ? undefined : ownImage(image, baseUrl);
  return own === undefined ? undefined : imageUrl(baseUrl, own);
}
