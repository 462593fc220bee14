import { SECTION_HEADINGS } from './section-headings.ts';
import { type StoryParts, storyMarkdownFromParts } from './story-parts.ts';
import type { ParsedStory } from './story-types.ts';

/** The parts of a parsed story, with every front matter key explicit (defaults included). */
export function storyPartsFromParsed(story: Pick<ParsedStory, 'frontMatter' | 'narrative' | 'sections'>): StoryParts {
  const parts: StoryParts = { ...story.frontMatter, narrative: story.narrative };
  for (const { key, field } of SECTION_HEADINGS) {
    const value = story.sections[key];
    if (value !== undefined) parts[field] = value;
  }
  return parts;
}

/**
 * Canonical markdown for a parsed story: every front matter key written out (defaults too), in
 * the stable order, then title, narrative and sections. parseStory(serializeStory(s)) gives back
 * the same front matter, narrative and sections; serializing that again gives the same text.
 */
export function serializeStory(story: Pick<ParsedStory, 'frontMatter' | 'narrative' | 'sections'>): string {
  return storyMarkdownFromParts(storyPartsFromParsed(story), { limits: false });
}
