// The reference for the markdown-cost bench: what the renderer costs on a text with no limits in
// front of it (micromark + GFM, as render-markdown.ts calls it), run on an offload worker so a
// hostile text can be stopped at the bench's budget instead of running for minutes.
import { renderMarkdown } from '../../src/http/pages/render-markdown.ts';
import type { OffloadTask } from '../../src/offload/offload.ts';

export function renderUnlimited(markdown: string): number {
  return renderMarkdown(markdown).length;
}

export const RENDER_UNLIMITED = (budgetMs: number): OffloadTask<string, number> => ({
  module: new URL(import.meta.url),
  name: 'renderUnlimited',
  run: renderUnlimited,
  budgetMs,
});
