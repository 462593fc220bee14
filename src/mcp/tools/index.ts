// Every lorebook MCP tool, in the order tools/list shows them: reads first, then writes.
import type { McpToolName } from '../../auth/mcp-tool-name.ts';
import type { ToolDefinition } from '../tool.ts';
import { appealModerationTool } from './appeal-moderation.ts';
import { checkCapabilityTool } from './check-capability.ts';
import { claimDraftTool } from './claim-draft.ts';
import { declineDraftTool } from './decline-draft.ts';
import { draftStoryForTool } from './draft-story-for.ts';
import { editStoryTool } from './edit-story.ts';
import { flagStoryTool } from './flag-story.ts';
import { getStoryTool } from './get-story.ts';
import { listDraftsTool } from './list-drafts.ts';
import { listNotificationsTool } from './list-notifications.ts';
import { markNotificationsReadTool } from './mark-notifications-read.ts';
import { publishDraftTool } from './publish-draft.ts';
import { publishStoryTool } from './publish-story.ts';
import { redactStoryTool } from './redact-story.ts';
import { reportCheckTool } from './report-check.ts';
import { reportDriftTool } from './report-drift.ts';
import { reportReproductionTool } from './report-reproduction.ts';
import { searchStoriesTool } from './search-stories.ts';
import { setVisibilityTool } from './set-visibility.ts';
import { suggestForProjectTool } from './suggest-for-project.ts';
import { unflagStoryTool } from './unflag-story.ts';
import { uploadImageTool } from './upload-image.ts';
import { withdrawDraftTool } from './withdraw-draft.ts';
import { withdrawReproductionTool } from './withdraw-reproduction.ts';

/**
 * Every tool by its name. The keys are exactly McpToolName (src/auth/mcp-tool-name.ts) and each
 * tool carries its key as its name, so a tool the access rule does not classify, or a classified
 * tool left out here, does not compile.
 */
const TOOLS_BY_NAME = {
  search_stories: searchStoriesTool,
  get_story: getStoryTool,
  suggest_for_project: suggestForProjectTool,
  check_capability: checkCapabilityTool,
  list_notifications: listNotificationsTool,
  list_drafts: listDraftsTool,
  publish_story: publishStoryTool,
  edit_story: editStoryTool,
  report_reproduction: reportReproductionTool,
  withdraw_reproduction: withdrawReproductionTool,
  report_check: reportCheckTool,
  report_drift: reportDriftTool,
  flag_story: flagStoryTool,
  unflag_story: unflagStoryTool,
  appeal_moderation: appealModerationTool,
  set_visibility: setVisibilityTool,
  mark_notifications_read: markNotificationsReadTool,
  upload_image: uploadImageTool,
  draft_story_for: draftStoryForTool,
  claim_draft: claimDraftTool,
  decline_draft: declineDraftTool,
  withdraw_draft: withdrawDraftTool,
  publish_draft: publishDraftTool,
  redact_story: redactStoryTool,
} satisfies { [Name in McpToolName]: { name: Name } };

export const TOOLS: readonly ToolDefinition[] = Object.values(TOOLS_BY_NAME) as ToolDefinition[];
