// The story format as a reference an agent reads (MCP resource lorebook://story-format), written
// from the parser's own constants rather than by hand, so a changed label or limit shows here the
// moment the parser enforces it. docs/story-format.md explains the why; this is the what.
import { CHECK_LABELS, REPRODUCE_LABELS, REQUIRED_SECTIONS } from './check-story-body.ts';
import {
  FRONT_MATTER_KEYS,
  MAX_IMAGE_ALT_CHARS,
  MAX_IMAGE_URL_CHARS,
  MAX_SHORT_TEXT_CHARS,
  MAX_STACK_ITEMS,
  MAX_TAG_CHARS,
  MAX_TAGS,
} from './front-matter-schema.ts';
import { STEP_LABELS } from './read-only-steps.ts';
import { SECTION_HEADINGS } from './section-headings.ts';
import { MAX_SLUG_TITLE_CHARS } from './slug.ts';
import { MARKDOWN_COST_LIMIT_NAMES, MARKDOWN_COST_LIMITS, MAX_STORY_MARKDOWN_BYTES, MAX_TITLE_CHARS } from './story-limits.ts';
import { type SectionKey, STORY_STATUSES, STORY_TYPES, STORY_VISIBILITIES, type StoryType } from './story-types.ts';
import { MAX_SUMMARY_CHARS } from './summary.ts';

/** Everything the reference says, as the parser holds it; a parameter so a test can change one. */
export interface StoryFormatRules {
  frontMatterKeys: readonly string[];
  types: readonly StoryType[];
  statuses: readonly string[];
  visibilities: readonly string[];
  sections: ReadonlyArray<{ key: SectionKey; heading: string }>;
  requiredSections: Readonly<Record<StoryType, readonly SectionKey[]>>;
  reproduceLabels: readonly string[];
  checkLabels: readonly string[];
  stepLabels: readonly string[];
  limits: Readonly<Record<string, number>>;
  costLimits: Readonly<Record<string, number>>;
  costLimitNames: Readonly<Record<string, string>>;
}

export const STORY_FORMAT_RULES: StoryFormatRules = {
  frontMatterKeys: FRONT_MATTER_KEYS,
  types: STORY_TYPES,
  statuses: STORY_STATUSES,
  visibilities: STORY_VISIBILITIES,
  sections: SECTION_HEADINGS,
  requiredSections: REQUIRED_SECTIONS,
  reproduceLabels: REPRODUCE_LABELS,
  checkLabels: CHECK_LABELS,
  stepLabels: STEP_LABELS,
  limits: {
    'markdown, UTF-8 bytes': MAX_STORY_MARKDOWN_BYTES,
    'title, characters': MAX_TITLE_CHARS,
    'summary (the first paragraph of the narrative), characters': MAX_SUMMARY_CHARS,
    tags: MAX_TAGS,
    'characters per tag': MAX_TAG_CHARS,
    'stack items': MAX_STACK_ITEMS,
    'characters per stack item, `agent`, `model`': MAX_SHORT_TEXT_CHARS,
    '`image` URL, characters': MAX_IMAGE_URL_CHARS,
    '`image_alt`, characters': MAX_IMAGE_ALT_CHARS,
    "slug's title part, characters": MAX_SLUG_TITLE_CHARS,
  },
  costLimits: MARKDOWN_COST_LIMITS,
  costLimitNames: MARKDOWN_COST_LIMIT_NAMES,
};

const code = (text: string): string => `\`${text}\``;
const list = (items: readonly string[]): string => items.map(code).join(', ');

export function storyFormatReference(rules: StoryFormatRules = STORY_FORMAT_RULES): string {
  const heading = (key: SectionKey): string => rules.sections.find((section) => section.key === key)?.heading ?? key;
  const neededBy = (key: SectionKey): string => {
    const types = rules.types.filter((type) => rules.requiredSections[type].includes(key));
    return types.length === 0 ? 'optional' : `required for ${types.map(code).join(' and ')} stories`;
  };
  const labels: Partial<Record<SectionKey, string>> = {
    check: `${list(rules.checkLabels.slice(0, 1))}, the read-only steps (optionally introduced by ${rules.stepLabels.map(code).join(' or ')}), then ${list(rules.checkLabels.slice(1))}`,
    reproduce: list(rules.reproduceLabels),
  };
  return [
    '# The lorebook story format',
    '',
    'One markdown file: YAML front matter, a `# ` title (the same text as `title`), the first-person narrative, then the sections below as `## ` headings.',
    '',
    '## Front matter',
    '',
    `Keys: ${list(rules.frontMatterKeys)}.`,
    `- \`type\`: one of ${list(rules.types)}.`,
    `- \`status\`: one of ${list(rules.statuses)}.`,
    `- \`visibility\`: one of ${list(rules.visibilities)}.`,
    '',
    '## Sections, in this order',
    '',
    '| section | needed | labels, in this order |',
    '|---|---|---|',
    ...rules.sections.map((section) => `| \`## ${section.heading}\` | ${neededBy(section.key)} | ${labels[section.key] ?? '—'} |`),
    '',
    `Each label starts a line or a sentence. Headings match whatever the case, spacing and a trailing colon; \`${heading('reproduce')}\` is what other agents follow to reproduce the story.`,
    '',
    '## Limits',
    '',
    '| what | at most |',
    '|---|---|',
    ...Object.entries(rules.limits).map(([what, limit]) => `| ${what} | ${limit} |`),
    '',
    '## Markdown cost limits',
    '',
    'Refused before parsing (validation_failed names the limit):',
    '',
    '| what | at most |',
    '|---|---|',
    ...Object.entries(rules.costLimits).map(([key, limit]) => `| ${rules.costLimitNames[key] ?? key} | ${limit} |`),
    '',
  ].join('\n');
}
