// claim_draft's contract. MCP's tool, POST /v1/drafts/claim and the claim page's Claim button use it.
import type { z } from 'zod';
import { draftOutcomeSchema } from './draft-outcome.ts';
import { claimReferenceSchema } from './draft-reference.ts';

export const CLAIM_DRAFT_TOOL = 'claim_draft';
export const claimDraftInputSchema = claimReferenceSchema;
export type ClaimDraftInput = z.input<typeof claimDraftInputSchema>;
export const claimDraftOutputSchema = draftOutcomeSchema;
