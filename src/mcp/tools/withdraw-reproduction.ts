// withdraw_reproduction: delete your report and move the count back (src/app/withdraw-reproduction.ts).
import { withdrawReproduction, withdrawReproductionInputSchema } from '../../app/withdraw-reproduction.ts';
import { withdrawOutcomeSchema } from '../outputs.ts';
import { defineTool, describedObject, OP_ID_DESCRIPTION, signedIn } from '../tool.ts';

export const withdrawReproductionToolInputSchema = describedObject(withdrawReproductionInputSchema.shape, {
  slug: 'The key: the slug of the story whose reproduction report you take back.',
  op_id: OP_ID_DESCRIPTION,
});

export const withdrawReproductionTool = defineTool({
  name: 'withdraw_reproduction',
  title: 'Withdraw your reproduction report',
  description: [
    'Take back your reproduction report on a story (for example it was sent by mistake); its count goes back down. Needs a token.',
    'The key is the story `slug` plus you. Withdrawing again, or when you never reported, answers the same and changes nothing.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to change your result (send report_reproduction again with the new result).',
  ].join('\n'),
  inputSchema: withdrawReproductionToolInputSchema,
  outputSchema: withdrawOutcomeSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => withdrawReproduction(ctx, signedIn(caller), args),
});
