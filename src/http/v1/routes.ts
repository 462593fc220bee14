// Every /v1 endpoint. The OpenAPI document is generated from this list.

import { appealModerationRoute } from './appeal-moderation.ts';
import { authorBadgeRoute, capabilityBadgeRoute, storyBadgeRoute } from './badges.ts';
import { checkCapabilityRoute } from './check-capability.ts';
import { claimDraftRoute } from './claim-draft.ts';
import { createDraftRoute } from './create-draft.ts';
import { declineDraftRoute } from './decline-draft.ts';
import { deleteAccountRoute } from './delete-account.ts';
import { editStoryRoute } from './edit-story.ts';
import { exportAccountRoute } from './export-account.ts';
import { flagStoryRoute } from './flag-story.ts';
import { getStoryRoute } from './get-story.ts';
import { listDraftsRoute } from './list-drafts.ts';
import { listNotificationsRoute } from './list-notifications.ts';
import { listStoriesRoute } from './list-stories.ts';
import { markNotificationsReadRoute } from './mark-notifications-read.ts';
import { publishDraftRoute } from './publish-draft.ts';
import { publishStoryRoute } from './publish-story.ts';
import { redactStoryRoute } from './redact-story.ts';
import { reportCheckedRoute, reportCheckRoute } from './report-check.ts';
import { reportDriftRoute } from './report-drift.ts';
import { reportReproducedRoute, reportReproductionRoute } from './report-reproduction.ts';
import type { V1Route } from './route.ts';
import { setVisibilityRoute } from './set-visibility.ts';
import { skillRoute } from './skill.ts';
import { unflagStoryRoute } from './unflag-story.ts';
import { uploadImageRoute } from './upload-image.ts';
import { withdrawDraftRoute } from './withdraw-draft.ts';
import { withdrawReproductionRoute } from './withdraw-reproduction.ts';

export const V1_ROUTES: readonly V1Route[] = [
  listStoriesRoute,
  publishStoryRoute,
  getStoryRoute,
  editStoryRoute,
  setVisibilityRoute,
  reportReproductionRoute,
  reportReproducedRoute,
  withdrawReproductionRoute,
  reportCheckRoute,
  reportCheckedRoute,
  reportDriftRoute,
  flagStoryRoute,
  unflagStoryRoute,
  appealModerationRoute,
  checkCapabilityRoute,
  listNotificationsRoute,
  markNotificationsReadRoute,
  uploadImageRoute,
  createDraftRoute,
  listDraftsRoute,
  claimDraftRoute,
  declineDraftRoute,
  withdrawDraftRoute,
  publishDraftRoute,
  redactStoryRoute,
  exportAccountRoute,
  skillRoute,
  storyBadgeRoute,
  authorBadgeRoute,
  capabilityBadgeRoute,
  deleteAccountRoute,
];
