// What the scanner reads of a story: its `## Check if this applies to you` and `## Reproduce this`
// sections, the steps a reader's agent runs. The story parser (src/domain/story) decides what
// those sections are; this file only finds where each starts, so findings can name lines of the
// story as stored.
import type { Heading } from 'mdast';
import { toString as nodeText } from 'mdast-util-to-string';
import { splitFrontMatter } from '../story/front-matter.ts';
import { markdownTree } from '../story/markdown-tree.ts';
import { SECTION_HEADINGS, sectionForHeading } from '../story/section-headings.ts';
import type { ParsedStory } from '../story/story-types.ts';

export type ScannedStorySection = 'check' | 'reproduce';

export interface SectionSource {
  section: ScannedStorySection;
  /** The section's markdown as the parser cut it (without its heading, blank lines around trimmed). */
  markdown: string;
  /** 1-based line of the stored story on which `markdown` begins. */
  firstLine: number;
}

export interface StorySource {
  sections: SectionSource[];
  /** The scanned text: what the report's sha256 is taken over (see capabilityText). */
  text: string;
}

const SCANNED: ReadonlyArray<ScannedStorySection> = ['check', 'reproduce'];

function headingOf(section: ScannedStorySection): string {
  const known = SECTION_HEADINGS.find((entry) => entry.key === section);
  if (known === undefined) throw new Error(`no heading for section ${section}`);
  return known.heading;
}

/**
 * The scanned text of a story: each scanned section that is present, in the order check then
 * reproduce, as `## <canonical heading>`, a blank line, the section's markdown, joined by a blank
 * line and ending with one newline. It is itself markdown: scanning it as a text gives the same
 * sha256, so a reader's agent can hash what it ran without knowing the story around it.
 */
export function capabilityText(sections: ReadonlyArray<Pick<SectionSource, 'section' | 'markdown'>>): string {
  if (sections.length === 0) return '';
  return `${sections.map(({ section, markdown }) => `## ${headingOf(section)}\n\n${markdown}`).join('\n\n')}\n`;
}

function linesBefore(text: string, offset: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** Locates the scanned sections of a story the story parser has read and validated. */
export function readStorySource(story: ParsedStory): StorySource {
  const body = splitFrontMatter(story.markdown).body;
  const bodyOffset = story.markdown.length - body.length;
  const headings = markdownTree(body).children.filter((node): node is Heading => node.type === 'heading' && node.depth === 2);
  const sections = SCANNED.flatMap((section): SectionSource[] => {
    const content = story.sections[section];
    // The parser keeps a section's first heading; its content follows it after blank lines only.
    const heading = headings.find((node) => sectionForHeading(nodeText(node))?.key === section);
    if (content === undefined || heading === undefined) return [];
    const offset = body.indexOf(content, heading.position?.end.offset ?? 0);
    return [{ section, markdown: content, firstLine: linesBefore(story.markdown, bodyOffset + offset) + 1 }];
  });
  return { sections, text: capabilityText(sections) };
}
