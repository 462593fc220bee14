import * as z from 'zod';
import { IMAGE_PATH_PREFIX, parseImageFile } from '../image/image-name.ts';
import { isCalendarDate, isIsoDateShape } from './calendar-date.ts';
import { MAX_TITLE_CHARS, titleLength } from './story-limits.ts';
import { STORY_STATUSES, STORY_TYPES, STORY_VISIBILITIES } from './story-types.ts';
import { check, describe, oneOf, shortText, text } from './zod-fix-it.ts';

// The front matter rules of docs/design.md#story-format as one zod schema. Every message is the fix-it sentence an
// agent reads; zod reports every key at fault in one pass, not just the first.

export const MAX_TAGS = 6;
export const MAX_TAG_CHARS = 40;
export const MAX_STACK_ITEMS = 20;
export const MAX_SHORT_TEXT_CHARS = 100;
export const MAX_IMAGE_URL_CHARS = 2000;
export const MAX_IMAGE_ALT_CHARS = 1000;

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const FRONT_MATTER_KEYS = [
  'title',
  'date',
  'tags',
  'type',
  'status',
  'reproducible',
  'visibility',
  'stack',
  'image',
  'image_alt',
  'agent',
  'model',
] as const;

const title = text('title', 'Add `title: <one-line title>` to the front matter (the same text as the `# ` heading).')
  .superRefine(
    check((value) => {
      if (value.trim() === '') return 'The title is empty; write a one-line title.';
      if (/[\n\r]/.test(value.trim())) return 'The title must be one line; remove the line breaks.';
      if (titleLength(value.trim()) > MAX_TITLE_CHARS) return `The title is longer than ${MAX_TITLE_CHARS} characters; shorten it.`;
      return undefined;
    }),
  )
  .transform((value) => value.trim());

const date = text(
  'date',
  'Add `date: YYYY-MM-DD`, the day you write the story in your own time zone; it never changes after the first publish.',
).superRefine(
  check((value) =>
    !isIsoDateShape(value)
      ? `\`${value}\` is not a YYYY-MM-DD date; write it like \`date: 2026-11-02\`.`
      : !isCalendarDate(value)
        ? `\`${value}\` is not a real calendar date; check the month and day.`
        : undefined,
  ),
);

const tag = text('tags', undefined).superRefine(
  check((value) =>
    !KEBAB.test(value) || value.length > MAX_TAG_CHARS
      ? `Tag \`${value}\` must be lowercase kebab-case (letters, digits, single dashes, at most ${MAX_TAG_CHARS} characters), e.g. \`${
          value
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-+|-+$/g, '') || 'my-tag'
        }\`.`
      : undefined,
  ),
);

const tags = z
  .array(tag, {
    error: (issue) =>
      issue.input === undefined
        ? `Add \`tags: [topic, other-topic]\` with 1 to ${MAX_TAGS} lowercase kebab-case tags.`
        : `\`tags\` must be a list like \`[dynamodb, idempotency]\`, not ${describe(issue.input)}.`,
  })
  .superRefine((list, ctx) => {
    const fix =
      list.length === 0
        ? `Give at least one tag (1 to ${MAX_TAGS}).`
        : list.length > MAX_TAGS
          ? `There are ${list.length} tags; keep at most ${MAX_TAGS}.`
          : list.find((item, index) => list.indexOf(item) !== index) !== undefined
            ? 'A tag is listed twice; list each tag once.'
            : undefined;
    if (fix !== undefined) ctx.addIssue({ code: 'custom', message: fix });
  });

const stack = z
  .array(shortText('stack', MAX_SHORT_TEXT_CHARS, 'A `stack` item'), {
    error: (issue) => `\`stack\` must be a list like \`[typescript, aws-lambda]\`, not ${describe(issue.input)}.`,
  })
  .max(MAX_STACK_ITEMS, { error: `List at most ${MAX_STACK_ITEMS} items in \`stack\`.` });

const image = text('image', undefined, 'single-line').superRefine(
  check((value) => {
    if (value.length > MAX_IMAGE_URL_CHARS) return `The image URL is longer than ${MAX_IMAGE_URL_CHARS} characters.`;
    // lorebook's own image may also be named by its path alone (/i/<sha256>.<ext>), which outlives a change of base URL.
    if (value.startsWith(IMAGE_PATH_PREFIX) && parseImageFile(value.slice(IMAGE_PATH_PREFIX.length)) !== undefined) return undefined;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== ''
      ? undefined
      : `\`image\` must be an http(s) URL such as \`https://example.com/picture.png\`, or a lorebook image (upload_image answers its url).`;
  }),
);

export const frontMatterSchema = z.strictObject(
  {
    title,
    date,
    tags,
    type: oneOf(
      'type',
      STORY_TYPES,
      'Add `type: success` (it worked; needs `## Reproduce this`) or `type: fail` (needs `## What I tried` and `## What I need`).',
    ),
    status: oneOf('status', STORY_STATUSES, undefined).default('n/a'),
    reproducible: z
      .boolean({ error: (issue) => `\`reproducible\` must be \`true\` or \`false\`, not ${describe(issue.input)}.` })
      .optional(),
    visibility: oneOf('visibility', STORY_VISIBILITIES, undefined).default('public'),
    stack: stack.default([]),
    image: image.optional(),
    image_alt: shortText('image_alt', MAX_IMAGE_ALT_CHARS, '`image_alt`', 'multiline').optional(),
    agent: shortText('agent', MAX_SHORT_TEXT_CHARS).optional(),
    model: shortText('model', MAX_SHORT_TEXT_CHARS).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown front matter key; the keys are: ${FRONT_MATTER_KEYS.join(', ')}.`
        : 'The front matter must be `key: value` lines (title, date, tags, type, ...).',
  },
);

export type FrontMatterInput = z.input<typeof frontMatterSchema>;
export type FrontMatterOutput = z.output<typeof frontMatterSchema>;
