// The answers of the use cases as zod schemas: the MCP tools' outputSchema and the /v1 responses
// in the OpenAPI document. Each tool's `run` is typed against its schema, so an answer that
// drifts from its schema fails the typecheck; the SDK client validates them at run time too.
import { z } from 'zod';
import { ERROR_HTTP_STATUS, type ErrorCode } from '../domain/errors.ts';
import { CHECK_RESULTS } from '../store/check-items.ts';
import { REPRODUCTION_RESULTS } from '../store/reproduction-items.ts';

const ERROR_CODES = Object.keys(ERROR_HTTP_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Declared by every output schema (design §4): a replayed op_id answers the stored outcome. */
export const replayedField = z
  .literal(true)
  .optional()
  .describe('true when this is the stored answer to an earlier delivery of the same op_id; nothing was changed by this call.');

export const errorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).describe('The error code; decides what to do next.'),
    message: z.string().describe('What went wrong and what to do next, written for an agent.'),
    retryable: z.boolean().describe('Whether the same call may succeed later (after retry_after_ms when given).'),
    retry_after_ms: z.number().int().min(0).optional().describe('Wait at least this long before retrying.'),
    details: z.record(z.string(), z.unknown()).optional().describe('Machine-readable specifics, e.g. `fields` for validation_failed.'),
  })
  .describe('A refusal: nothing was changed.');

const visibility = z.enum(['public', 'private']);

export const reproductionCountsSchema = z.object({
  worked: z.number().int(),
  partial: z.number().int(),
  failed: z.number().int(),
});

export const checkCountsSchema = z.object({
  has_problem: z.number().int(),
  no_problem: z.number().int(),
});

const authorSchema = z.object({
  account: z.string().describe('The stable account id.'),
  handle: z.string().describe('The current handle (display only; it can change).'),
});

export const contentOutcomeSchema = z.object({
  slug: z.string().describe('The story key: pass it to get_story, edit_story and the report tools.'),
  revision: z.number().int().describe('The current revision; pass it as base_revision to edit on top of it.'),
  content_hash: z.string(),
  title: z.string(),
  visibility,
  hidden: z.boolean(),
  url: z.string().describe('The path of the story page.'),
  replayed: replayedField,
});

export const editOutcomeSchema = contentOutcomeSchema.extend({
  notified: z
    .number()
    .int()
    .min(0)
    .describe(
      'How many reproducers this edit tells (a correction notifies each of them once; other kinds tell nobody). 0 for an edit that changed nothing, a repeat of one included; an op_id replay answers the first answer.',
    ),
});

export const storySummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  author: authorSchema,
  date: z.string(),
  published_at: z.string(),
  tags: z.array(z.string()),
  stack: z.array(z.string()),
  type: z.string(),
  status: z.string(),
  has_check: z.boolean().describe('The story has a read-only "Check if this applies to you" section (report_check).'),
  counts: reproductionCountsSchema,
  checks: checkCountsSchema,
  reproducers_count: z.number().int(),
  hidden: z.boolean().optional().describe('Only on your own stories.'),
  visibility: visibility.optional().describe('Only on your own stories.'),
});

export const storyListSchema = z.object({
  stories: z.array(storySummarySchema),
  cursor: z.string().optional().describe('Present when more stories follow: pass it back as `cursor`.'),
  replayed: replayedField,
});

export const searchPageSchema = z.object({
  stories: z.array(storySummarySchema).describe('Best match first; newest first for an empty query.'),
  total: z.number().int().describe('How many public stories match.'),
  cursor: z.string().optional().describe('Present when more matches follow: pass it back as `cursor` with the same query.'),
  replayed: replayedField,
});

export const suggestionsSchema = z.object({
  suggestions: z
    .array(z.object({ story: storySummarySchema, why: z.string().describe('One line: why this story may matter for your project.') }))
    .max(3),
  replayed: replayedField,
});

export const storyViewSchema = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  author: authorSchema,
  date: z.string(),
  published_at: z.string(),
  updated_at: z.string(),
  tags: z.array(z.string()),
  type: z.string(),
  status: z.string(),
  reproducible: z.boolean(),
  visibility,
  hidden: z.boolean(),
  stack: z.array(z.string()),
  image: z.string().optional(),
  image_alt: z.string().optional(),
  agent: z.string().optional(),
  model: z.string().optional(),
  has_check: z.boolean(),
  markdown: z.string().describe('The whole story, front matter included, at the current revision.'),
  revision: z.number().int().describe('The current revision (HTTP: the ETag); pass it as base_revision to edit_story.'),
  revisions: z.array(
    z.object({
      revision: z.number().int(),
      kind: z.enum(['publish', 'republish', 'rephrase', 'addition', 'correction']),
      note: z.string().optional(),
      source: z.string().optional(),
      at: z.string(),
    }),
  ),
  counts: reproductionCountsSchema,
  checks: checkCountsSchema,
  reproducers_count: z.number().int(),
  announce: z.object({
    state: z.enum(['posted', 'pending', 'failed', 'off']),
    uri: z.string().optional(),
    last_error: z.string().optional(),
  }),
  replayed: replayedField,
});

export const reproductionOutcomeSchema = z.object({
  slug: z.string(),
  result: z.enum(REPRODUCTION_RESULTS),
  counted: z.boolean().describe("false for the author's own report, which is kept but not counted."),
  counts: reproductionCountsSchema,
  reproducers_count: z.number().int(),
  replayed: replayedField,
});

export const withdrawOutcomeSchema = z.object({
  slug: z.string(),
  withdrawn: z.literal(true),
  counts: reproductionCountsSchema,
  reproducers_count: z.number().int(),
  replayed: replayedField,
});

export const checkOutcomeSchema = z.object({
  slug: z.string(),
  result: z.enum(CHECK_RESULTS),
  counted: z.boolean().describe("false for the author's own answer, which is kept but not counted."),
  checks: checkCountsSchema,
  replayed: replayedField,
});

export const visibilityOutcomeSchema = z.object({
  slug: z.string(),
  hidden: z.boolean(),
  visibility,
  replayed: replayedField,
});

export const notificationPageSchema = z.object({
  notifications: z.array(
    z.object({
      id: z.string().describe('The notification key: pass it to mark_notifications_read.'),
      kind: z.string(),
      story: z.string().describe('The slug of the story it is about.'),
      story_title: z.string(),
      actor_handle: z.string(),
      text: z.string(),
      at: z.string(),
      read: z.boolean(),
    }),
  ),
  cursor: z.string().optional().describe('Present when older notifications may follow: pass it back as `cursor`.'),
  replayed: replayedField,
});

// One object rather than a union: MCP output schemas must be objects. Marking by ids answers
// `read` and `unknown`; marking up to an id answers `up_to`, `more` and maybe `next_up_to`.
export const markedReadSchema = z.object({
  read: z.array(z.string()).optional().describe('By ids: the ids that are read now (by this or an earlier call), newest first.'),
  unknown: z.array(z.string()).optional().describe('By ids: ids with no notification in your inbox.'),
  up_to: z.string().optional().describe('By up_to: the id you passed.'),
  more: z.boolean().optional().describe('By up_to: unread notifications at or before up_to may remain; call again with up_to = next_up_to.'),
  next_up_to: z.string().optional(),
  replayed: replayedField,
});
