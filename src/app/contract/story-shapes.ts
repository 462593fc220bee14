// The pieces every story answer shares: the visibility, the author, the two kinds of counts and
// the summary that lists, searches and suggestions show. The types are derived from the schemas,
// so an answer and its listed schema cannot drift apart.
import { z } from 'zod';
import { capabilityTierSchema } from './capability-schemas.ts';
import { driftSchema } from './drift-schemas.ts';

export const visibilitySchema = z.enum(['public', 'private']);

export const reproductionCountsSchema = z.object({
  worked: z.number().int(),
  partial: z.number().int(),
  failed: z.number().int(),
});

export type ReproductionCounts = z.output<typeof reproductionCountsSchema>;

export const checkCountsSchema = z.object({
  has_problem: z.number().int(),
  no_problem: z.number().int(),
});

export type CheckCounts = z.output<typeof checkCountsSchema>;

export const authorSchema = z.object({
  account: z.string().describe('The stable account id.'),
  handle: z.string().describe('The current handle (display only; it can change).'),
});

export type AuthorView = z.output<typeof authorSchema>;

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
  capability_tier: capabilityTierSchema
    .nullable()
    .describe("The capability tier of the story's check and reproduce steps (get_story has the findings); null when not scanned."),
  drift: driftSchema
    .optional()
    .describe(
      'Only while the story is "changed since publish": two independent readers ran steps whose sha256 differs from the published one (report_drift). Read the steps again before running them.',
    ),
  // Only on the author's own stories: to anyone else a listed story is always public and shown.
  hidden: z.boolean().optional().describe('Only on your own stories.'),
  visibility: visibilitySchema.optional().describe('Only on your own stories.'),
});

export type StorySummary = z.output<typeof storySummarySchema>;
