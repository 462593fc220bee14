import { checkFrontMatter } from './check-front-matter.ts';
import { checkStoryBody } from './check-story-body.ts';
import { contentHash } from './content-hash.ts';
import { readFrontMatterYaml, splitFrontMatter } from './front-matter.ts';
import { assertMarkdownCostWithinLimits } from './markdown-cost.ts';
import { withSharedMarkdownTrees } from './markdown-tree.ts';
import { normalizeMarkdown } from './normalize-markdown.ts';
import { serializeStory } from './serialize-story.ts';
import { splitStoryBody } from './story-body.ts';
import { assertMarkdownWithinLimit, assertTitleWithinLimit } from './story-limits.ts';
import type { ParsedStory } from './story-types.ts';
import { summarize } from './summary.ts';
import { ValidationFaults } from './validation-faults.ts';

export interface ParseStoryOptions {
  /** How the refusal names what was checked, e.g. "The story assembled from your parts". */
  subject?: string;
  /** Renames `front_matter.title`-style fields in the refusal, e.g. to publish_story's part names. */
  renameField?: (field: string) => string;
}

/**
 * Parses and validates story markdown (docs/design.md#story-format).
 *
 * Order matters: the size limits are checked first (payload_too_large, before any parsing work),
 * then every front matter key and body rule is checked and all faults are reported together
 * (validation_failed with details.fields naming each one and how to fix it).
 */
export function parseStory(markdown: string, options: ParseStoryOptions = {}): ParsedStory {
  return withSharedMarkdownTrees(() => readStory(markdown, options));
}

function readStory(markdown: string, options: ParseStoryOptions): ParsedStory {
  assertMarkdownWithinLimit(markdown);
  const normalized = normalizeMarkdown(markdown);
  assertMarkdownCostWithinLimits(normalized, options);
  const faults = new ValidationFaults(options.renameField);

  const split = splitFrontMatter(normalized);
  if (split.problem !== undefined) faults.add('front_matter', split.problem);
  const read = split.yaml === undefined ? undefined : readFrontMatterYaml(split.yaml);
  if (read !== undefined && !read.ok) faults.add('front_matter', read.problem);
  const data = read?.ok === true ? read.data : undefined;
  if (data !== null && typeof data === 'object' && 'title' in data && typeof data.title === 'string') {
    assertTitleWithinLimit(data.title);
  }

  // Without readable front matter, its "missing key" faults would only repeat `front_matter`.
  const checked =
    split.problem === undefined && data !== undefined
      ? checkFrontMatter(data, faults)
      : { frontMatter: undefined, type: undefined, title: undefined };
  const body = splitStoryBody(split.body);
  // An unclosed front matter swallowed the whole body: body faults would only be noise.
  const unclosed = split.problem !== undefined && split.yaml !== undefined;
  if (!unclosed) checkStoryBody(body, checked.type, checked.title, faults);
  faults.throwIfAny(options.subject ?? 'The story');
  if (checked.frontMatter === undefined) throw new Error('front matter passed validation but was not built');

  const story = { frontMatter: checked.frontMatter, narrative: body.narrative, sections: body.sections };
  return {
    markdown: normalized,
    // The hash of the canonical form, not of the bytes sent: the same story written by hand, with
    // other YAML quoting or blank lines, or sent as parts, is the same content and writes nothing.
    contentHash: contentHash(serializeStory(story)),
    ...story,
    hasCheck: body.sections.check !== undefined,
    summary: summarize(body.narrative),
  };
}
