// A stored story's body as page HTML, bounded: measured first (markdown-shape.ts), rendered only
// within the cost limits, and the HTML kept only up to the rendered-size limit. Over a limit the
// body is shown degraded (plain escaped text, with a note) instead: stories stored before the
// limits existed may be over them. Runs on the offload worker under the render budget.
import { markdownCostFaults } from '../../domain/story/markdown-cost.ts';
import { MARKDOWN_COST_LIMIT_NAMES, MARKDOWN_COST_LIMITS, MARKDOWN_RENDER_BUDGET_MS } from '../../domain/story/story-limits.ts';
import type { OffloadTask } from '../../offload/offload.ts';
import { degradedBody } from './degraded-body.ts';
import { renderMarkdown, storyBodyMarkdown } from './render-markdown.ts';

/**
 * `maxHtmlBytes` is the rendered-size limit, checked on the HTML itself: the backstop should the
 * pre-scan's estimate (which the fuzz test holds above every real render) ever fall short.
 */
export function renderStoryBody(markdown: string, maxHtmlBytes: number = MARKDOWN_COST_LIMITS.renderedBytes): string {
  const body = storyBodyMarkdown(markdown);
  const over = markdownCostFaults(body)[0];
  if (over !== undefined) {
    return degradedBody(
      body,
      `its markdown is over the ${MARKDOWN_COST_LIMIT_NAMES[over.limit]} limit (${MARKDOWN_COST_LIMITS[over.limit]}).`,
    );
  }
  const html = renderMarkdown(body);
  if (Buffer.byteLength(html) > maxHtmlBytes) {
    return degradedBody(body, `rendered, it would be over the rendered size limit (${maxHtmlBytes} bytes).`);
  }
  return html;
}

export const RENDER_STORY_BODY_TASK: OffloadTask<string, string> = {
  module: new URL(import.meta.url),
  name: 'renderStoryBody',
  run: (markdown) => renderStoryBody(markdown),
  budgetMs: MARKDOWN_RENDER_BUDGET_MS,
};
