// check_capability's scan: what CHECK_CAPABILITY_TASK runs (check-capability-task.ts), in the
// offload worker or inline. A module of its own so the parser and the scanner load only when
// a text is first scanned.
import { scanParsedStory, scanText } from '../../domain/capability/scan.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { withSharedMarkdownTrees } from '../../domain/story/markdown-tree.ts';
import { parseStory } from '../../domain/story/parse-story.ts';
import { MAX_STORY_MARKDOWN_BYTES, utf8Bytes } from '../../domain/story/story-limits.ts';
import type { CheckCapabilityOutcome } from '../check-capability.contract.ts';

/**
 * Runs in the worker: a text publish would accept is scanned as that story; any other text as
 * text, up to the scanner's 256 KiB (a text past a story's 64 KiB is no story, so it is not parsed as one).
 */
export function scanCapabilityText(text: string): CheckCapabilityOutcome {
  return withSharedMarkdownTrees(() => scanAsStoryOrText(text));
}

function scanAsStoryOrText(text: string): CheckCapabilityOutcome {
  let story: ReturnType<typeof parseStory> | undefined;
  try {
    if (utf8Bytes(text) <= MAX_STORY_MARKDOWN_BYTES) story = parseStory(text);
  } catch (error) {
    // Not a story (or not a valid one, a title too long included): publish would refuse it, so it is read as plain text.
    if (!isLorebookError(error) || (error.code !== 'validation_failed' && error.code !== 'payload_too_large')) throw error;
  }
  return story === undefined ? { ...scanText(text), scanned_as: 'text' } : { ...scanParsedStory(story), scanned_as: 'story' };
}
