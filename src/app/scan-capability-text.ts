// check_capability's scan: what CHECK_CAPABILITY_TASK runs (check-capability-task.ts), in the
// offload worker or inline. A module of its own so the parser and the scanner load only when
// a text is first scanned.
import { scanParsedStory, scanText } from '../domain/capability/scan.ts';
import { isLorebookError } from '../domain/errors.ts';
import { parseStory } from '../domain/story/parse-story.ts';
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
