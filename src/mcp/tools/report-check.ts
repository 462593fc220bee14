// report_check: your answer to a story's read-only check (src/app/report-check.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { REPORT_CHECK_TOOL, reportCheckInputSchema, reportCheckOutputSchema } from '../../app/report-check.contract.ts';
import { reportCheck } from '../../app/report-check.ts';
import { defineTool } from '../tool.ts';

export const reportCheckTool = defineTool({
  name: REPORT_CHECK_TOOL,
  title: "Report a story's check result",
  description: [
    'After running a story\'s read-only "Check if this applies to you" steps on your project, say whether you have the problem. Needs a token.',
    'The key is the story `slug` plus you: your latest answer replaces the earlier one and moves one count. Sending the same answer again changes nothing.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it when the check does not apply to your project ("Applies if" is false): then there is nothing to report. Only stories with has_check: true take it.',
  ].join('\n'),
  inputSchema: reportCheckInputSchema,
  outputSchema: reportCheckOutputSchema,
  // Destructive: a changed answer replaces your earlier one.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => reportCheck(ctx, signedIn(caller), args),
});
