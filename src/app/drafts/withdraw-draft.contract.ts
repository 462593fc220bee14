// withdraw_draft's contract. MCP's tool and POST /v1/drafts/{id}/withdraw use it.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';
import { draftOutcomeSchema } from './draft-outcome.ts';
import { draftIdSchema } from './draft-reference.ts';

export const WITHDRAW_DRAFT_TOOL = 'withdraw_draft';
export const withdrawDraftInputSchema = describedObject(
  { draft_id: draftIdSchema, op_id: z.string().optional() },
  { draft_id: 'The key: the id of a draft you wrote, as draft_story_for or list_drafts answered it.', op_id: OP_ID_DESCRIPTION },
);
export type WithdrawDraftInput = z.input<typeof withdrawDraftInputSchema>;
export const withdrawDraftOutputSchema = draftOutcomeSchema;
