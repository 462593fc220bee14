import type { Heading, RootContent } from 'mdast';
import { toString as nodeText } from 'mdast-util-to-string';
import { markdownTree } from './markdown-tree.ts';
import { sectionForHeading } from './section-headings.ts';
import type { SectionKey, StorySections } from './story-types.ts';

// Headings are found with a CommonMark parser (mdast-util-from-markdown, on micromark) instead of
// matching lines that start with "#": a `## Reproduce this` line inside a fenced code block or a
// blockquote is not a heading, a setext heading (text underlined with ---) is one, and only a real
// parser gets all of that right. Only top-level headings split sections; section bodies are cut
// from the source text by offset, so their markdown is kept byte for byte.

export interface TitleHeading {
  /** The heading's source text without the `# ` marker, e.g. "Issue #12 *again*". */
  raw: string;
  /** The heading as plain text, e.g. "Issue #12 again". */
  plain: string;
}

export interface StoryBody {
  titleHeading: TitleHeading | undefined;
  /** True when something other than blank lines comes before the `# ` title heading. */
  textBeforeTitle: boolean;
  narrative: string;
  sections: StorySections;
  /** Sections whose heading appears more than once (only the first is kept). */
  duplicates: SectionKey[];
}

/** Drops blank lines at the start and all whitespace at the end; keeps indentation of the first line. */
export function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}

function start(node: RootContent): number {
  return node.position?.start.offset ?? 0;
}

function end(node: RootContent): number {
  return node.position?.end.offset ?? 0;
}

function headingRaw(source: string, heading: Heading): string {
  const text = source.slice(start(heading), end(heading));
  return text.startsWith('#')
    ? text.replace(/^#{1,6}[ \t]*/, '').trim()
    : text.split('\n').slice(0, -1).join(' ').replace(/\s+/g, ' ').trim();
}

/** Splits a story body (the markdown after the front matter) into title, narrative and sections. */
export function splitStoryBody(body: string): StoryBody {
  const nodes = markdownTree(body).children;
  const known = nodes.flatMap((node) => {
    if (node.type !== 'heading' || node.depth !== 2) return [];
    const section = sectionForHeading(nodeText(node));
    return section === undefined ? [] : [{ node, key: section.key }];
  });
  const firstSection = known[0] === undefined ? body.length : start(known[0].node);
  const title = nodes.find((node): node is Heading => node.type === 'heading' && node.depth === 1 && start(node) < firstSection);
  const narrativeStart = title === undefined ? 0 : end(title);

  const sections: StorySections = {};
  const duplicates: SectionKey[] = [];
  known.forEach(({ node, key }, index) => {
    const next = known[index + 1];
    const content = trimBlankLines(body.slice(end(node), next === undefined ? body.length : start(next.node)));
    if (sections[key] === undefined) sections[key] = content;
    else if (!duplicates.includes(key)) duplicates.push(key);
  });

  return {
    titleHeading: title === undefined ? undefined : { raw: headingRaw(body, title), plain: nodeText(title).trim() },
    textBeforeTitle: title !== undefined && body.slice(0, start(title)).trim() !== '',
    narrative: trimBlankLines(body.slice(narrativeStart, firstSection)),
    sections,
    duplicates,
  };
}
