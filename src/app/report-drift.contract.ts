// report_drift's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/drift use exactly these.
import { z } from 'zod';
import { CATEGORY_TIERS } from '../domain/capability/categories.ts';
import { MAX_EVIDENCE_CHARS, MAX_FINDINGS, MAX_STORY_FINDINGS } from '../domain/capability/scan-limits.ts';
import { CATEGORIES, capabilityFindingSchema, capabilitySummarySchema } from './contract/capability-schemas.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { changedSincePublishSchema, driftFlagSchema } from './contract/drift-schemas.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';

export const REPORT_DRIFT_TOOL = 'report_drift';

export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** Longest rule name a finding may carry; the scanner's are far shorter. */
const MAX_RULE_CHARS = 100;

// A finding exactly as check_capability answers it, with every string bounded: evidence is at
// most MAX_EVIDENCE_CHARS code points, so twice that in UTF-16 units covers any of them.
const reportedFindingSchema = capabilityFindingSchema
  .extend({
    rule: z.string().max(MAX_RULE_CHARS),
    evidence: z.string().max(MAX_EVIDENCE_CHARS * 2),
  })
  .refine((found) => found.tier === CATEGORY_TIERS[found.category], {
    message: "A finding's tier must be its category's tier (as check_capability answers it): send the findings unchanged.",
    path: ['tier'],
  });

export const reportDriftInputSchema = describedObject(
  {
    slug: z.string(),
    sha256: z.string().regex(SHA256_HEX, 'Not a sha256: send the 64 hex digits check_capability answered as `sha256`.'),
    findings: z
      .array(reportedFindingSchema)
      .max(MAX_FINDINGS + MAX_STORY_FINDINGS, `At most ${MAX_FINDINGS + MAX_STORY_FINDINGS} findings, as check_capability lists them.`)
      .optional(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of the story whose steps you ran.',
    sha256:
      'The key: the sha256 of the steps you actually ran, as check_capability (or the same scanner) answers it for that text. One report per story, account and hash.',
    findings: `Optional: the findings check_capability answered for that text, unchanged (at most ${MAX_FINDINGS + MAX_STORY_FINDINGS}; those of section \`story\` are not compared); the answer then says which categories differ from the published report.`,
    op_id: OP_ID_DESCRIPTION,
  },
);

export type ReportDriftInput = z.input<typeof reportDriftInputSchema>;

const categoryListSchema = z.array(z.enum(CATEGORIES));

export const reportDriftOutputSchema = z.object({
  slug: z.string(),
  sha256: z.string().describe('The hash you reported, in lowercase hex.'),
  matches: z
    .boolean()
    .describe('true when it is the published sha256: you ran the steps as published. Such a report never counts as drift.'),
  published: capabilitySummarySchema
    .unwrap()
    .describe("The published report's sha256, tier and scanner version (of the story's current revision)."),
  counted: z
    .boolean()
    .describe(
      "Whether your report counts toward drift: false for a matching hash and for the author's own report, which are kept but not counted.",
    ),
  categories: z
    .object({
      added: categoryListSchema.describe('Categories your findings have and the published report does not.'),
      removed: categoryListSchema.describe('Categories the published report has and your findings do not.'),
    })
    .nullable()
    .describe('Which capability categories differ, when you sent findings; null when you did not.'),
  reporters: z
    .number()
    .int()
    .describe('How many independent readers (not the author) reported this hash since the story last changed, you included when counted.'),
  changed_since_publish: changedSincePublishSchema,
  drift: driftFlagSchema,
  replayed: replayedField,
});

export type DriftOutcome = Outcome<typeof reportDriftOutputSchema>;
