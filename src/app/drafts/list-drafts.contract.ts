// list_drafts' contract. MCP's tool and GET /v1/drafts use it.
import { z } from 'zod';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import { draftIdSchema } from './draft-reference.ts';
import { draftViewSchema } from './draft-view.ts';

export const LIST_DRAFTS_TOOL = 'list_drafts';
export const MAX_DRAFTS_PAGE = 50;
export const DEFAULT_DRAFTS_PAGE = 20;

export const listDraftsInputSchema = z.strictObject({
  draft_id: draftIdSchema
    .optional()
    .describe('Only this draft, with its markdown (you wrote it or claimed it): read it before editing and publishing.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_DRAFTS_PAGE)
    .optional()
    .describe(`Drafts per page, 1–${MAX_DRAFTS_PAGE} (default ${DEFAULT_DRAFTS_PAGE}).`),
  cursor: z.string().max(300).optional().describe('The cursor of the previous page, to read older drafts.'),
});

export type ListDraftsInput = z.input<typeof listDraftsInputSchema>;

export const listDraftsOutputSchema = z.object({
  drafts: z.array(
    draftViewSchema.extend({
      role: z
        .enum(['drafter', 'claimer'])
        .describe('"drafter": you wrote it for someone; "claimer": someone wrote it for you and you claimed it.'),
    }),
  ),
  cursor: z.string().optional().describe('Present when older drafts may follow: pass it back as `cursor`.'),
  replayed: replayedField,
});

export type DraftPage = Outcome<typeof listDraftsOutputSchema>;
