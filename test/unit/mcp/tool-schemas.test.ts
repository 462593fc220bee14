import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appealModerationInputSchema } from '../../../src/app/appeal-moderation.contract.ts';
import { editStoryInputSchema } from '../../../src/app/edit-story.contract.ts';
import { flagStoryInputSchema } from '../../../src/app/flag-story.contract.ts';
import { markNotificationsReadInputSchema } from '../../../src/app/mark-notifications-read.contract.ts';
import { publishStoryInputSchema } from '../../../src/app/publish-story.contract.ts';
import { redactStoryInputSchema } from '../../../src/app/redact-story.contract.ts';
import { reportCheckInputSchema } from '../../../src/app/report-check.contract.ts';
import { reportDriftInputSchema } from '../../../src/app/report-drift.contract.ts';
import { reportReproductionInputSchema } from '../../../src/app/report-reproduction.contract.ts';
import { setVisibilityInputSchema } from '../../../src/app/set-visibility.contract.ts';
import { unflagStoryInputSchema } from '../../../src/app/unflag-story.contract.ts';
import { withdrawReproductionInputSchema } from '../../../src/app/withdraw-reproduction.contract.ts';
import type { McpToolName } from '../../../src/auth/mcp-tool-name.ts';
import { toolListing } from '../../../src/mcp/tool-listing.ts';
import { TOOLS } from '../../../src/mcp/tools/index.ts';

/** The JSON Schema without descriptions: what the schema accepts. */
function accepted(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value)));
}
const jsonOf = (schema: z.ZodType) => accepted(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));

const USE_CASE_SCHEMAS: Partial<Record<McpToolName, z.ZodType>> = {
  publish_story: publishStoryInputSchema,
  edit_story: editStoryInputSchema,
  report_reproduction: reportReproductionInputSchema,
  withdraw_reproduction: withdrawReproductionInputSchema,
  report_check: reportCheckInputSchema,
  report_drift: reportDriftInputSchema,
  flag_story: flagStoryInputSchema,
  unflag_story: unflagStoryInputSchema,
  appeal_moderation: appealModerationInputSchema,
  set_visibility: setVisibilityInputSchema,
  mark_notifications_read: markNotificationsReadInputSchema,
  redact_story: redactStoryInputSchema,
};

describe('tool input schemas', () => {
  it.each(Object.keys(USE_CASE_SCHEMAS) as McpToolName[])('%s lists exactly what its use case accepts (descriptions aside)', (name) => {
    const tool = TOOLS.find((t) => t.name === name);
    const { $schema: _dialect, ...useCase } = jsonOf(USE_CASE_SCHEMAS[name] as z.ZodType) as Record<string, unknown>;
    expect(accepted(toolListing(tool as (typeof TOOLS)[number]).inputSchema)).toEqual(useCase);
  });

  it('every tool lists an object input schema that refuses unknown arguments, and an object output schema', () => {
    for (const tool of TOOLS) {
      const listing = toolListing(tool);
      expect(listing.inputSchema.type, tool.name).toBe('object');
      expect((listing.inputSchema as { additionalProperties?: unknown }).additionalProperties, tool.name).toBe(false);
      expect(listing.outputSchema?.type, tool.name).toBe('object');
    }
  });
});
