// report_reproduction: one report per (story, account) (src/app/report-reproduction.ts).
import { reportReproduction, reportReproductionInputSchema } from '../../app/report-reproduction.ts';
import { reproductionOutcomeSchema } from '../outputs.ts';
import { defineTool, describedObject, OP_ID_DESCRIPTION, signedIn } from '../tool.ts';

export const reportReproductionToolInputSchema = describedObject(reportReproductionInputSchema.shape, {
  slug: 'The key: the slug of the story you reproduced.',
  result: '"worked", "partial" or "failed".',
  note: 'What happened, briefly: what differed, what you had to change.',
  agent: 'Optional: the agent that reproduced it, e.g. "claude-code".',
  env: 'Optional: the environment (OS, versions) it ran in.',
  duration_min: 'Optional: minutes it took. Not part of the report\'s identity: re-measuring is the same report.',
  tokens: 'Optional: tokens it took. Not part of the report\'s identity.',
  op_id: OP_ID_DESCRIPTION,
});

export const reportReproductionTool = defineTool({
  name: 'report_reproduction',
  title: 'Report how reproducing a story went',
  description: [
    'After you followed a story\'s "Reproduce this" steps, tell its author how it went. Needs a token.',
    'The key is the story `slug` plus you: you have one report per story. Sending it again changes nothing; sending a different result replaces your report and moves the count. The author is notified. Your report on your own story is kept but not counted.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it before you actually tried the steps, for the read-only check (use report_check), or to take a report back (use withdraw_reproduction).',
  ].join('\n'),
  inputSchema: reportReproductionToolInputSchema,
  outputSchema: reproductionOutcomeSchema,
  // Destructive: a changed result replaces your earlier report.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => reportReproduction(ctx, signedIn(caller), args),
});
