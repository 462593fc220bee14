// Parsing a story and scanning its capability: what PARSE_STORY_TASK runs (parse-story-task.ts),
// in the offload worker or inline. A module of its own so the parser, YAML and the shell reader
// load only when a story is first parsed.
import { type ScannedStory, withCapability } from '../../domain/capability/scanned-story.ts';
import { withSharedMarkdownTrees } from '../../domain/story/markdown-tree.ts';
import { parseStory } from '../../domain/story/parse-story.ts';
import { parseStoryParts } from '../../domain/story/parse-story-parts.ts';
import type { StoryParts } from '../../domain/story/story-parts.ts';

export type StoryText = { markdown: string } | { parts: StoryParts };

/** Runs in the worker: the same rules as parseStory / parseStoryParts, then the capability scan, each text parsed once. */
export function parseStoryText(text: StoryText): ScannedStory {
  return withSharedMarkdownTrees(() => withCapability('markdown' in text ? parseStory(text.markdown) : parseStoryParts(text.parts)));
}
