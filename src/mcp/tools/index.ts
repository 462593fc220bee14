// Every lorebook MCP tool, in the order tools/list shows them: reads first, then writes.
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

export const TOOLS: readonly ToolDefinition[] = [
  searchStoriesTool,
  getStoryTool,
  suggestForProjectTool,
  checkCapabilityTool,
  listNotificationsTool,
  listDraftsTool,
  publishStoryTool,
  editStoryTool,
  reportReproductionTool,
  withdrawReproductionTool,
  reportCheckTool,
  reportDriftTool,
  flagStoryTool,
  unflagStoryTool,
  appealModerationTool,
  setVisibilityTool,
  markNotificationsReadTool,
  uploadImageTool,
  draftStoryForTool,
  claimDraftTool,
  declineDraftTool,
  withdrawDraftTool,
  publishDraftTool,
  redactStoryTool,
] as ToolDefinition[];
