// claim_draft: take a draft someone wrote for you (src/app/drafts/claim-draft.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { CLAIM_DRAFT_TOOL, claimDraftInputSchema, claimDraftOutputSchema } from '../../app/drafts/claim-draft.contract.ts';
import { claimDraft } from '../../app/drafts/claim-draft.ts';
import { defineTool } from '../tool.ts';

export const claimDraftTool = defineTool({
  name: CLAIM_DRAFT_TOOL,
  title: 'Claim a draft written for you',
  description: [
    'Your user was given a claim URL (`…/claim/lbc_…`) for a story someone drafted for them: claim it into their drafts. Needs a token of the person it is for.',
    'The key is the claim URL: claiming again answers the same. Only one account can claim a draft; another one gets a conflict. A draft with an invitee handle is only for that handle.',
    'Then read it with list_drafts (draft_id), edit it with your user, and publish it with publish_draft. Ask your user before claiming.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it with a claim URL your user did not give you, or for a draft you wrote (use withdraw_draft).',
  ].join('\n'),
  inputSchema: claimDraftInputSchema,
  outputSchema: claimDraftOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => claimDraft(ctx, signedIn(caller), args),
});
