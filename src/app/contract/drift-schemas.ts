// "Changed since publish" as answers carry it (design.md#drift): in get_story's capability, in
// report_drift's answer, and on list and search summaries.
import { z } from 'zod';
import { capabilityReportSchema } from './capability-schemas.ts';

/** What reproducers of the story ran instead, and since when. */
export const driftSchema = z.object({
  sha256: z.string().describe('The hash of the steps readers who reproduced the story ran instead of the published ones.'),
  since: z.string().describe('When the report that reached the threshold (2 reproducers by default) arrived (ISO 8601).'),
});

export const driftFlagSchema = driftSchema
  .nullable()
  .describe('Present while the story is "changed since publish"; null otherwise. The author\'s next content change clears it.');

export const changedSincePublishSchema = z
  .boolean()
  .describe(
    'true when enough readers who reproduced the story (2 by default; never the author, never an account that did not reproduce it) reported running steps whose sha256 differs from the published one, the same hash each time, since the story last changed: read the steps again before running them.',
  );

/** get_story's capability: the stored report, and whether readers ran something else since. */
export const storyCapabilitySchema = capabilityReportSchema.extend({
  changed_since_publish: changedSincePublishSchema,
  drift: driftFlagSchema,
});
