// Rendered story bodies, remembered per process. Rendering costs milliseconds of CPU per story
// (~2 ms for a typical one, far more for a 64 KiB worst case: npm run bench:pages) while the
// read costs less; a story's text at a given revision never changes (revisions are kept, never
// overwritten), so slug + revision is a safe key and nothing needs invalidating. Bounded: the
// least recently used entry goes first.
import { renderMarkdown, storyBodyMarkdown } from './render-markdown.ts';

export const RENDERED_BODIES_MAX = 256;

export interface RenderedBodies {
  html(slug: string, revision: number, markdown: string): string;
}

export function createRenderedBodies(max = RENDERED_BODIES_MAX): RenderedBodies {
  const entries = new Map<string, string>();
  return {
    html(slug, revision, markdown) {
      const key = `${slug}@${revision}`;
      const cached = entries.get(key);
      if (cached !== undefined) {
        // Map keeps insertion order: moving the entry to the end marks it most recently used.
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const rendered = renderMarkdown(storyBodyMarkdown(markdown));
      entries.set(key, rendered);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return rendered;
    },
  };
}
