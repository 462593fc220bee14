import { parseStory } from './parse-story.ts';
import { type StoryParts, storyMarkdownFromParts } from './story-parts.ts';
import type { ParsedStory } from './story-types.ts';

/**
 * The part a markdown-level fault came from. A caller who sent JSON parts thinks in part names
 * (`title`, `reproduce`), not in front matter keys and sections of a document it never saw.
 */
export function partNameForField(field: string): string {
  if (field.startsWith('front_matter.')) return field.slice('front_matter.'.length);
  if (field.startsWith('section.')) return field.slice('section.'.length);
  if (field === 'body.narrative') return 'narrative';
  if (field === 'body.title') return 'title';
  return field;
}

/**
 * Assembles parts into markdown and parses it: the same story, content hash and rules as
 * publishing that markdown, with `details.fields` keyed by part name (`title`, `tags`, `reproduce`).
 */
export function parseStoryParts(parts: StoryParts): ParsedStory {
  return parseStory(storyMarkdownFromParts(parts), {
    subject: 'The story assembled from your parts',
    renameField: partNameForField,
  });
}
