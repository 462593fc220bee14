// A stored story's body as page HTML, bounded: measured first (markdown-shape.ts), rendered only
// within the cost limits, and the HTML kept only up to the rendered-size limit. Over a limit the
// body is shown degraded (plain escaped text, with a note) instead: stories stored before the
// limits existed may be over them. What RENDER_STORY_BODY_TASK runs (render-body-task.ts), in the
// offload worker or inline; a module of its own so the renderer loads with the first page.
import { markdownCostFaults } from '../../domain/story/markdown-cost.ts';
import { MARKDOWN_COST_LIMIT_NAMES, MARKDOWN_COST_LIMITS } from '../../domain/story/story-limits.ts';
import { degradedBody } from './degraded-body.ts';
import { renderMarkdown, storyBodyMarkdown } from './render-markdown.ts';

/** A stored story's markdown, and the public base URL that tells lorebook's own images (render-markdown.ts). */
export interface StoryBodyInput {
  markdown: string;
  baseUrl?: string;
}

/** What RENDER_STORY_BODY_TASK runs: one argument, as the offload worker calls it. */
export function renderStoryBodyTask(input: StoryBodyInput): string {
  return renderStoryBody(input.markdown, MARKDOWN_COST_LIMITS.renderedBytes, input.baseUrl);
}

/**
 * `maxHtmlBytes` is the rendered-size limit, checked on the HTML itself: the backstop should the
 * pre-scan's estimate (which the fuzz test holds above every real render) ever fall short.
 */
export function renderStoryBody(markdown: string, maxHtmlBytes: number = MARKDOWN_COST_LIMITS.renderedBytes, baseUrl?: string): string {
  const body = storyBodyMarkdown(markdown);
  const over = markdownCostFaults(body)[0];
  if (over !== undefined) {
    return degradedBody(
      body,
      `its markdown is over the ${MARKDOWN_COST_LIMIT_NAMES[over.limit]} limit (${MARKDOWN_COST_LIMITS[over.limit]}).`,
    );
  }
  const html = renderMarkdown(body, baseUrl);
  if (Buffer.byteLength(html) > maxHtmlBytes) {
    return degradedBody(body, `rendered, it would be over the rendered size limit (${maxHtmlBytes} bytes).`);
  }
  return html;
}
