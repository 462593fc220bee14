import { toString as nodeText } from 'mdast-util-to-string';
import { Document, isSeq } from 'yaml';
import { FRONT_MATTER_KEYS } from './front-matter-schema.ts';
import { markdownCostFaults } from './markdown-cost.ts';
import { markdownTree } from './markdown-tree.ts';
import { normalizeMarkdown } from './normalize-markdown.ts';
import { headingKey, SECTION_HEADINGS, sectionForHeading } from './section-headings.ts';
import { trimBlankLines } from './story-body.ts';
import { assertMarkdownWithinLimit, assertTitleWithinLimit } from './story-limits.ts';
import type { StoryStatus, StoryType, StoryVisibility } from './story-types.ts';
import { ValidationFaults } from './validation-faults.ts';

/**
 * publish_story's parts (docs/design.md#story-format). Values are loosely typed on purpose: they are checked by the
 * same rules as markdown after assembly, so a bad `type` gets the same fix-it message either way.
 * Section parts are the section body as markdown, without the `## ` heading (a leading heading
 * that names the section is accepted and dropped).
 */
export interface StoryParts {
  title: string;
  date: string;
  narrative: string;
  tags: string[];
  type: StoryType | (string & {});
  status?: StoryStatus | (string & {});
  reproducible?: boolean;
  visibility?: StoryVisibility | (string & {});
  stack?: string[];
  image?: string;
  image_alt?: string;
  agent?: string;
  model?: string;
  check?: string;
  reproduce?: string;
  what_i_tried?: string;
  what_i_need?: string;
}

function frontMatterYaml(parts: StoryParts): string {
  const record = parts as unknown as Record<string, unknown>;
  const entries = FRONT_MATTER_KEYS.flatMap((key) => (record[key] === undefined ? [] : [[key, record[key]] as const]));
  const document = new Document(Object.fromEntries(entries));
  // Flow lists (`tags: [a, b]`) are what people write, so parts and hand-written markdown match.
  for (const key of ['tags', 'stack']) {
    const node = document.get(key, true);
    if (isSeq(node)) node.flow = true;
  }
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** Drops a leading heading that repeats what the assembly adds anyway (`# title`, `## Reproduce this`). */
function withoutOwnHeading(markdown: string, depth: number, text: string): string {
  const first = markdownTree(markdown).children[0];
  if (first?.type !== 'heading' || first.depth !== depth || headingKey(nodeText(first)) !== headingKey(text)) return markdown;
  return trimBlankLines(markdown.slice(first.position?.end.offset ?? 0));
}

function partText(value: string): string {
  return trimBlankLines(normalizeMarkdown(value));
}

/** A known `## ` heading inside a part would split the story differently than the caller meant. */
function checkNoSectionHeadings(name: string, markdown: string, faults: ValidationFaults): void {
  for (const node of markdownTree(markdown).children) {
    const section = node.type === 'heading' && node.depth === 2 ? sectionForHeading(nodeText(node)) : undefined;
    if (section !== undefined) {
      faults.add(
        name,
        `The \`${name}\` part contains a \`## ${section.heading}\` heading; pass that text as the \`${section.field}\` part instead.`,
      );
    }
  }
}

function assertPartsCostWithinLimits(parts: StoryParts): void {
  const faults = new ValidationFaults();
  for (const name of ['narrative', ...SECTION_HEADINGS.map((section) => section.field)] as const) {
    const value = parts[name];
    if (typeof value === 'string') for (const { fix } of markdownCostFaults(value)) faults.add(name, fix);
  }
  faults.throwIfAny('The story parts');
}

/**
 * Assembles the markdown a person would write from publish_story's parts: front matter in a
 * stable key order (only the keys given), `# title`, the narrative, then the sections in the
 * order of docs/design.md#story-format. The result is normalised, so parts and the equivalent markdown hash the same.
 */
export function storyMarkdownFromParts(parts: StoryParts, options: { limits?: boolean } = {}): string {
  // `limits: false` is for re-serialising a story that already passed them (its canonical form
  // spells out defaults, so it may be a few bytes longer than what was accepted).
  const limits = options.limits ?? true;
  // Limits first, on the raw parts, so an oversized call costs no assembly work.
  if (limits && typeof parts.title === 'string') assertTitleWithinLimit(parts.title);
  if (limits)
    assertMarkdownWithinLimit(
      Object.values(parts)
        .filter((value) => typeof value === 'string')
        .join(''),
    );
  // The cost limits too, part by part, before the parts are parsed for their headings below.
  if (limits) assertPartsCostWithinLimits(parts);
  const faults = new ValidationFaults();
  const heading = typeof parts.title === 'string' ? parts.title.replace(/\s+/g, ' ').trim() : '';
  const narrative = withoutOwnHeading(partText(parts.narrative ?? ''), 1, heading);
  checkNoSectionHeadings('narrative', narrative, faults);
  const blocks = [`# ${heading}`, narrative];
  for (const { field: part, heading: name } of SECTION_HEADINGS) {
    const value = parts[part];
    if (value === undefined) continue;
    const body = withoutOwnHeading(partText(value), 2, name);
    checkNoSectionHeadings(part, body, faults);
    blocks.push(`## ${name}`, body);
  }
  faults.throwIfAny('The story parts');
  const markdown = normalizeMarkdown(`---\n${frontMatterYaml(parts)}---\n\n${blocks.filter((block) => block !== '').join('\n\n')}\n`);
  if (limits) assertMarkdownWithinLimit(markdown);
  return markdown;
}
