// The story model (docs/design.md#story-format): what a parsed, valid story looks like.

export const STORY_TYPES = ['success', 'fail'] as const;
export const STORY_STATUSES = ['n/a', 'open'] as const;
export const STORY_VISIBILITIES = ['public', 'private'] as const;

export type StoryType = (typeof STORY_TYPES)[number];
export type StoryStatus = (typeof STORY_STATUSES)[number];
export type StoryVisibility = (typeof STORY_VISIBILITIES)[number];

/** Front matter with defaults applied (status n/a, visibility public, stack [], reproducible by type). */
export interface StoryFrontMatter {
  title: string;
  date: string;
  tags: string[];
  type: StoryType;
  status: StoryStatus;
  reproducible: boolean;
  visibility: StoryVisibility;
  stack: string[];
  image?: string;
  image_alt?: string;
  agent?: string;
  model?: string;
}

/** Section bodies as markdown text, without their `## ` heading, blank lines around trimmed. */
export interface StorySections {
  check?: string;
  reproduce?: string;
  whatITried?: string;
  whatINeed?: string;
}

export type SectionKey = keyof StorySections;

export interface ParsedStory {
  /** The normalised markdown (see normalizeMarkdown); what is stored and hashed. */
  markdown: string;
  /** contentHash(serializeStory(story)): equal for equal content, however it was written. */
  contentHash: string;
  frontMatter: StoryFrontMatter;
  /** The first-person text between `# title` and the first known section, as markdown. */
  narrative: string;
  sections: StorySections;
  /** True when the story has a `## Check if this applies to you` section. */
  hasCheck: boolean;
  /** First paragraph of the narrative as plain text, at most ~280 characters. */
  summary: string;
}
