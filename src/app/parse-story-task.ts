// Parsing and validating a story for publish and edit, on the offload worker under the parse
// budget: the event loop stays free for other requests while a 64 KiB story is parsed (up to
// seconds of CPU within the cost limits). A parse stopped by its budget, or whose worker died, is
// refused as validation_failed: the story, not the server, is what has to change. The capability
// scan runs there too, on the story just parsed (nothing is parsed twice), under the same budget.
import { withCapability, type ScannedStory } from '../domain/capability/scanned-story.ts';
import { validationFailed } from '../domain/errors.ts';
import { parseStory } from '../domain/story/parse-story.ts';
import { parseStoryParts } from '../domain/story/parse-story-parts.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../domain/story/story-limits.ts';
import type { StoryParts } from '../domain/story/story-parts.ts';
import { OffloadBudgetExceeded, OffloadFailed, sharedOffload, type OffloadTask } from '../offload/offload.ts';

export type StoryText = { markdown: string } | { parts: StoryParts };

/** Runs in the worker: the same rules as parseStory / parseStoryParts, then the capability scan. */
export function parseStoryText(text: StoryText): ScannedStory {
  return withCapability('markdown' in text ? parseStory(text.markdown) : parseStoryParts(text.parts));
}

export const PARSE_STORY_TASK: OffloadTask<StoryText, ScannedStory> = {
  module: new URL(import.meta.url),
  name: 'parseStoryText',
  run: parseStoryText,
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
};

export async function parseStoryOffloaded(text: StoryText): Promise<ScannedStory> {
  try {
    return await sharedOffload().run(PARSE_STORY_TASK, text);
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
