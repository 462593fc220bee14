// withdraw_reproduction: delete your report and move the count back (src/app/withdraw-reproduction.ts).

import { signedIn } from '../../app/caller/signed-in.ts';
import {
  WITHDRAW_REPRODUCTION_TOOL,
  withdrawReproductionInputSchema,
  withdrawReproductionOutputSchema,
} from '../../app/withdraw-reproduction.contract.ts';
import { withdrawReproduction } from '../../app/withdraw-reproduction.ts';
import { defineTool } from '../tool.ts';

export const withdrawReproductionTool = defineTool({
  name: WITHDRAW_REPRODUCTION_TOOL,
  title: 'Withdraw your reproduction report',
  description: [
    'Take back your reproduction report on a story (for example it was sent by mistake); its count goes back down. Needs a token.',
    'The key is the story `slug` plus you. Withdrawing again, or when you never reported, answers the same and changes nothing.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to change your result (send report_reproduction again with the new result).',
  ].join('\n'),
  inputSchema: withdrawReproductionInputSchema,
  outputSchema: withdrawReproductionOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => withdrawReproduction(ctx, signedIn(caller), args),
});
