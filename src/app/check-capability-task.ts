// check_capability's scan, on the offload worker under the parse budget: telling a story from
// other text means parsing it as a story, which can take the same seconds publish's parse can.
import { scanParsedStory, scanText } from '../domain/capability/scan.ts';
import { isLorebookError, validationFailed } from '../domain/errors.ts';
import { parseStory } from '../domain/story/parse-story.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../domain/story/story-limits.ts';
import { OffloadBudgetExceeded, OffloadFailed, sharedOffload, type OffloadTask } from '../offload/offload.ts';
import type { CheckCapabilityOutcome } from './check-capability.contract.ts';

/** Runs in the worker: a text publish would accept is scanned as that story; any other text as text. */
export function scanCapabilityText(text: string): CheckCapabilityOutcome {
  let story: ReturnType<typeof parseStory> | undefined;
  try {
    story = parseStory(text);
  } catch (error) {
    // Not a story (or not a valid one): publish would refuse it, so it is read as plain text.
    if (!isLorebookError(error) || error.code !== 'validation_failed') throw error;
  }
  return story === undefined ? { ...scanText(text), scanned_as: 'text' } : { ...scanParsedStory(story), scanned_as: 'story' };
}

export const CHECK_CAPABILITY_TASK: OffloadTask<string, CheckCapabilityOutcome> = {
  module: new URL(import.meta.url),
  name: 'scanCapabilityText',
  run: scanCapabilityText,
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
};

export async function scanCapabilityOffloaded(text: string): Promise<CheckCapabilityOutcome> {
  try {
    return await sharedOffload().run(CHECK_CAPABILITY_TASK, text);
  } catch (error) {
    if (error instanceof OffloadBudgetExceeded || error instanceof OffloadFailed) {
      throw validationFailed(`The text took more than the ${MARKDOWN_PARSE_BUDGET_MS} ms time budget, or the memory set aside, to scan.`, {
        text: 'Send less: the steps that run, or the text split into parts.',
      });
    }
    throw error;
  }
}
