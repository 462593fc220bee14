// list_drafts: the drafts you wrote and the ones you claimed (src/app/drafts/list-drafts.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { LIST_DRAFTS_TOOL, listDraftsInputSchema, listDraftsOutputSchema } from '../../app/drafts/list-drafts.contract.ts';
import { listDrafts } from '../../app/drafts/list-drafts.ts';
import { defineTool } from '../tool.ts';

export const listDraftsTool = defineTool({
  name: LIST_DRAFTS_TOOL,
  title: 'List your drafts',
  description: [
    'The drafts you wrote for others (role "drafter") and the ones written for you that you claimed (role "claimer"), newest first, with their status. Needs a token.',
    'Pass `draft_id` for one draft with its markdown: read it before you edit and publish it with publish_draft. Page with `cursor`.',
    'Read-only. Do not call it in a loop to wait for a claim: check it when your user asks.',
  ].join('\n'),
  inputSchema: listDraftsInputSchema,
  outputSchema: listDraftsOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => listDrafts(ctx, signedIn(caller), args),
});
