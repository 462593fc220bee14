// Parsing and validating a story for publish and edit, on the offload worker under the parse
// budget: the event loop stays free for other requests while a 64 KiB story is parsed (up to
// seconds of CPU within the cost limits). A parse stopped by its budget, or whose worker died, is
// refused as validation_failed: the story, not the server, is what has to change. The capability
// scan runs there too, on the story just parsed (nothing is parsed twice), under the same budget.
import type { ScannedStory } from '../../domain/capability/scanned-story.ts';
import { validationFailed } from '../../domain/errors.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../../domain/story/story-limits.ts';
import { heavyText, OffloadBudgetExceeded, OffloadFailed, type OffloadTask } from '../../offload/offload.ts';
import { type CpuScope, runOffloaded } from '../context/offloaded.ts';
import type { StoryText } from './parse-story-text.ts';

export type { StoryText } from './parse-story-text.ts';

/** The parser and the scanner are imported by the first task that runs (in the worker, or inline). */
export const PARSE_STORY_TASK: OffloadTask<StoryText, ScannedStory> = {
  module: new URL('./parse-story-text.ts', import.meta.url),
  name: 'parseStoryText',
  run: async (text) => (await import('./parse-story-text.ts')).parseStoryText(text),
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
  heavy: (text) => ('markdown' in text ? heavyText(text.markdown) : heavyText(...Object.values(text.parts))),
};

/** In the call's share of the workers (`scope`): a parse refused for load is `rate_limited`, nothing parsed. */
export async function parseStoryOffloaded(text: StoryText, scope?: CpuScope): Promise<ScannedStory> {
  try {
    return await runOffloaded(scope, PARSE_STORY_TASK, text);
  } catch (error) {
    const field = 'markdown' in text ? 'markdown' : 'parts';
    if (error instanceof OffloadBudgetExceeded) {
      throw validationFailed(`The story took longer than the ${MARKDOWN_PARSE_BUDGET_MS} ms parse time budget to read.`, {
        [field]: `Parsing it took longer than the parse time budget (${MARKDOWN_PARSE_BUDGET_MS} ms). Simplify its markdown (fewer nested quotes and lists, shorter paragraphs of markup) and send it again.`,
      });
    }
    if (error instanceof OffloadFailed) {
      throw validationFailed('Parsing the story exhausted the memory set aside for it.', {
        [field]: 'Parsing it ran out of the memory set aside for one story. Simplify its markdown and send it again.',
      });
    }
    throw error;
  }
}
