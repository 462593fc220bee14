// How a page names an image on another site, which it links to instead of loading (design.md#slugs-dates-images).
// Text in, text out: the caller escapes it as it escapes the alt text it passes (the renderer's
// alt is micromark's escaped output; the story page's goes through hono's html template).

/** "Image: <alt> (on <host>)", or "Image on <host>" without alt text. */
export function elsewhereImageLabel(alt: string, host: string): string {
  return alt.trim() === '' ? `Image on ${host}` : `Image: ${alt} (on ${host})`;
}
