// Rendered story bodies, remembered per process. Rendering costs milliseconds of CPU per story
// (~2 ms for a typical one, ~110 ms for a 58 KiB body: npm run bench:pages) while hashing the
// text costs a fraction of that. The key is the SHA-256 of the markdown itself — not the slug
// and revision, which a read racing an edit could pair with the other revision's text — so an
// entry can never be stale and nothing needs invalidating. Bounded: least recently used out first.
import { createHash } from 'node:crypto';
import { renderMarkdown, storyBodyMarkdown } from './render-markdown.ts';

export const RENDERED_BODIES_MAX = 256;

export interface RenderedBodies {
  /** The story body of this stored markdown, as HTML (render-markdown.ts rules). */
  html(markdown: string): string;
}

const renderBody = (markdown: string): string => renderMarkdown(storyBodyMarkdown(markdown));

/** `render` is the real renderer; a test may wrap it to count the renders. */
export function createRenderedBodies(max = RENDERED_BODIES_MAX, render: (markdown: string) => string = renderBody): RenderedBodies {
  const entries = new Map<string, string>();
  return {
    html(markdown) {
      const key = createHash('sha256').update(markdown).digest('base64');
      const cached = entries.get(key);
      if (cached !== undefined) {
        // Map keeps insertion order: moving the entry to the end marks it most recently used.
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const rendered = render(markdown);
      entries.set(key, rendered);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return rendered;
    },
  };
}
