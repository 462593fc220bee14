// get_story's `author_recheck`: the author's own re-run of the story (docs/design.md#re-run). Never
// counted in `counts`; shown so readers know whether the author still stands by the steps.
import { z } from 'zod';

export const authorRecheckSchema = z
  .object({
    result: z.enum(['worked', 'partial', 'failed']).describe("The author's own reproduction result."),
    at: z.string().describe('When the author last reported it (ISO 8601).'),
    state: z
      .enum(['current', 'outdated'])
      .describe('"outdated" once a correction or addition was published after the report; a rephrase keeps it current.'),
    changed_by: z
      .object({
        revision: z.number().int(),
        kind: z.enum(['correction', 'addition']),
        at: z.string(),
      })
      .optional()
      .describe('When outdated: the newest correction or addition published after the report.'),
    text: z
      .string()
      .describe(
        'The line the story page shows, e.g. "author re-checked 2026-11-02 — still works" or "not re-checked by the author since the correction of 2026-11-05".',
      ),
  })
  .describe("The author's own re-run of the story, absent when the author never reported one. It is never counted.");

export type AuthorRecheckView = z.output<typeof authorRecheckSchema>;
