// report_drift: the sha256 of the steps you actually ran, when it differs from the story's (src/app/report-drift.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { REPORT_DRIFT_TOOL, reportDriftInputSchema, reportDriftOutputSchema } from '../../app/report-drift.contract.ts';
import { defineTool } from '../tool.ts';

export const reportDriftTool = defineTool({
  name: REPORT_DRIFT_TOOL,
  title: 'Report that the steps you ran differ from the published ones',
  description: [
    "After running a story's steps, scan exactly the text you ran with check_capability and send its `sha256` (and, optionally, its `findings` unchanged). Call it when that sha256 differs from the story's `capability.sha256`. Needs a token.",
    'The key is the story `slug`, the `sha256` and you: sending the same report again changes nothing. A hash equal to the published one, or your own story, is kept but never counts.',
    'When two independent readers report the same different hash, the story shows "changed since publish" until its author edits it, and the author is told once per hash.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for a story whose steps you did not run, nor with a sha256 you did not compute from exactly what you ran.',
  ].join('\n'),
  inputSchema: reportDriftInputSchema,
  outputSchema: reportDriftOutputSchema,
  // Not destructive: a report of one hash never replaces another hash's, nor anyone else's.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/report-drift.ts')).reportDrift(ctx, signedIn(caller), args);
  },
});
