// Rendering a stored story's body (render-story-body.ts) on the offload worker under the render
// budget. The renderer (micromark with GFM) is imported by the first render, in the worker or
// inline: a process that serves no page never loads it.
import { MARKDOWN_RENDER_BUDGET_MS } from '../../domain/story/story-limits.ts';
import { heavyText, type OffloadTask } from '../../offload/offload.ts';
import type { StoryBodyInput } from './render-story-body.ts';

export const RENDER_STORY_BODY_TASK: OffloadTask<StoryBodyInput, string> = {
  module: new URL('./render-story-body.ts', import.meta.url),
  name: 'renderStoryBodyTask',
  run: async (input) => (await import('./render-story-body.ts')).renderStoryBodyTask(input),
  budgetMs: MARKDOWN_RENDER_BUDGET_MS,
  heavy: (input) => heavyText(input.markdown),
};
