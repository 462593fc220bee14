// The aggregates a story answer carries from its reproduction reports' metadata
// (src/domain/reproduction-aggregates.ts): described so an agent knows why a figure is missing.
import { z } from 'zod';
import { MAX_NAMED_BUCKETS, MIN_REPORTS_PER_BUCKET, MIN_REPORTS_PER_FIGURE } from '../../domain/reproduction-aggregates.ts';

const breakdownSchema = z.object({
  reports: z.number().int().describe('Counted reports that carry this field.'),
  buckets: z
    .array(z.object({ name: z.string(), reports: z.number().int() }))
    .describe(
      `Largest first, at most ${MAX_NAMED_BUCKETS}; a name is listed only when at least ${MIN_REPORTS_PER_BUCKET} reports share it. Names are normalised: lower case, spaces and underscores as "-".`,
    ),
  other: z.number().int().describe(`Reports whose name is shared by fewer than ${MIN_REPORTS_PER_BUCKET} (or is past the listed names).`),
});

const medianSchema = z.object({
  reports: z.number().int().describe('Counted reports that carry this field.'),
  median: z.number().describe('The middle value; with an even number of reports, the mean of the two middle ones.'),
});

export const reproductionAggregatesSchema = z
  .object({
    by_agent_family: breakdownSchema.optional().describe("Reports by the agent's name (report_reproduction's agent.name)."),
    by_os: breakdownSchema.optional().describe("Reports by the environment's os (report_reproduction's env.os)."),
    duration_min: medianSchema.optional().describe("The median of the reports' duration_min."),
    tokens: medianSchema.optional().describe("The median of the reports' tokens."),
  })
  .describe(
    `Figures from the counted reproduction reports (the author's own is not counted), never per person. Each figure is present only once at least ${MIN_REPORTS_PER_FIGURE} counted reports carry its field; agent and env sent as plain strings count in none.`,
  );
