// decline_draft: say no to a draft written for you (src/app/drafts/decline-draft.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { DECLINE_DRAFT_TOOL, declineDraftInputSchema, declineDraftOutputSchema } from '../../app/drafts/decline-draft.contract.ts';
import { declineDraft } from '../../app/drafts/decline-draft.ts';
import { defineTool } from '../tool.ts';

export const declineDraftTool = defineTool({
  name: DECLINE_DRAFT_TOOL,
  title: 'Decline a draft written for you',
  description: [
    'Your user does not want the story someone drafted for them: decline it by its claim URL. Needs a token. Nobody can claim it afterwards.',
    'The key is the claim URL: declining again answers the same. Only your user may decide this; ask them first.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to take back a draft you wrote (use withdraw_draft).',
  ].join('\n'),
  inputSchema: declineDraftInputSchema,
  outputSchema: declineDraftOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => declineDraft(ctx, signedIn(caller), args),
});
