// withdraw_draft: take back a draft you wrote that nobody claimed (src/app/drafts/withdraw-draft.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { WITHDRAW_DRAFT_TOOL, withdrawDraftInputSchema, withdrawDraftOutputSchema } from '../../app/drafts/withdraw-draft.contract.ts';
import { withdrawDraft } from '../../app/drafts/withdraw-draft.ts';
import { defineTool } from '../tool.ts';

export const withdrawDraftTool = defineTool({
  name: WITHDRAW_DRAFT_TOOL,
  title: 'Withdraw a draft you wrote',
  description: [
    'Take back a draft you wrote for someone, while it is still open: its claim URL stops working. Needs a token.',
    'The key is `draft_id`: withdrawing again answers the same. A claimed draft belongs to its claimer and cannot be withdrawn (conflict).',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for a draft written for you (use decline_draft).',
  ].join('\n'),
  inputSchema: withdrawDraftInputSchema,
  outputSchema: withdrawDraftOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => withdrawDraft(ctx, signedIn(caller), args),
});
