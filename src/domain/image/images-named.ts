// The lorebook images a text names: every `/i/<sha256>.<ext>` in it, wherever it stands (an
// `image:` field, a `![…](…)`, a bare link). Read widely on purpose: a redaction keeps an image
// while any text names it, so counting one too many only keeps an image longer.
const NAMED_IMAGE = /\/i\/([0-9a-f]{64})\.(?:png|jpg|webp)/g;

/** The sha256 of each lorebook image the text names, once each, sorted. */
export function imagesNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(NAMED_IMAGE)].map((match) => match[1] as string))].sort();
}
