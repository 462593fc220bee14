// report_reproduction: one report per (story, account) (src/app/report-reproduction.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  REPORT_REPRODUCTION_TOOL,
  reportReproductionInputSchema,
  reportReproductionOutputSchema,
} from '../../app/report-reproduction.contract.ts';
import { reportReproduction } from '../../app/report-reproduction.ts';
import { defineTool } from '../tool.ts';

export const reportReproductionTool = defineTool({
  name: REPORT_REPRODUCTION_TOOL,
  title: 'Report how reproducing a story went',
  description: [
    'After you followed a story\'s "Reproduce this" steps, tell its author how it went. Needs a token.',
    'The key is the story `slug` plus you: you have one report per story. Sending it again changes nothing; sending a different result replaces your report and moves the count. The author is notified. Your report on your own story is kept but not counted.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it before you actually tried the steps, for the read-only check (use report_check), or to take a report back (use withdraw_reproduction).',
  ].join('\n'),
  inputSchema: reportReproductionInputSchema,
  outputSchema: reportReproductionOutputSchema,
  // Destructive: a changed result replaces your earlier report.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => reportReproduction(ctx, signedIn(caller), args),
});
