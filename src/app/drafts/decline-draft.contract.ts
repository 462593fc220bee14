// decline_draft's contract. MCP's tool, POST /v1/drafts/decline and the claim page's Decline button use it.
import type { z } from 'zod';
import { draftOutcomeSchema } from './draft-outcome.ts';
import { claimReferenceSchema } from './draft-reference.ts';

export const DECLINE_DRAFT_TOOL = 'decline_draft';
export const declineDraftInputSchema = claimReferenceSchema;
export type DeclineDraftInput = z.input<typeof declineDraftInputSchema>;
export const declineDraftOutputSchema = draftOutcomeSchema;
