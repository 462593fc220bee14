import { frontMatterSchema } from './front-matter-schema.ts';
import { STORY_TYPES, type StoryFrontMatter, type StoryType } from './story-types.ts';
import type { ValidationFaults } from './validation-faults.ts';

export interface FrontMatterCheck {
  /** The valid front matter with defaults applied; undefined when any front matter key is at fault. */
  frontMatter: StoryFrontMatter | undefined;
  /** The story type when that key alone is valid, so the section rules still run. */
  type: StoryType | undefined;
  /** The trimmed title when it is text, so the `# ` heading can still be compared. */
  title: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// `image:` with nothing after it, or `~`, means "not set", the same as leaving the line out.
function dropEmpty(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== ''));
}

/** Validates parsed front matter, adding a fault for every key at fault. */
export function checkFrontMatter(data: unknown, faults: ValidationFaults): FrontMatterCheck {
  const raw = isRecord(data) ? dropEmpty(data) : data;
  const result = frontMatterSchema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [key] = issue.path;
      if (issue.code === 'unrecognized_keys') {
        for (const unknown of issue.keys) faults.add(`front_matter.${unknown}`, issue.message);
      } else {
        faults.add(key === undefined ? 'front_matter' : `front_matter.${String(key)}`, issue.message);
      }
    }
  }
  const record = isRecord(raw) ? raw : {};
  const hasImage = record.image !== undefined;
  const hasAlt = record.image_alt !== undefined;
  if (hasImage !== hasAlt) {
    faults.add(
      hasImage ? 'front_matter.image_alt' : 'front_matter.image',
      hasImage
        ? 'An `image` needs `image_alt`: describe the picture for people who cannot see it.'
        : '`image_alt` needs an `image` URL next to it; add `image: https://...` or remove `image_alt`.',
    );
  }
  const type = STORY_TYPES.find((value) => value === record.type);
  const title = typeof record.title === 'string' ? record.title.trim() : undefined;
  if (!result.success || hasImage !== hasAlt) return { frontMatter: undefined, type, title };

  const valid = result.data;
  const frontMatter: StoryFrontMatter = {
    title: valid.title,
    date: valid.date,
    tags: valid.tags,
    type: valid.type,
    status: valid.status,
    // A success story is reproducible unless it says otherwise; a fail story is not.
    reproducible: valid.reproducible ?? valid.type === 'success',
    visibility: valid.visibility,
    stack: valid.stack,
  };
  for (const key of ['image', 'image_alt', 'agent', 'model'] as const) {
    const value = valid[key];
    if (value !== undefined) frontMatter[key] = value;
  }
  return { frontMatter, type, title };
}
