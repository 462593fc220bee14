// The hold itself (docs/moderation.md, design.md#flags-quarantine): the flag that brings the counted flags to
// LOREBOOK_QUARANTINE_FLAGS writes it in the same conditioned META update that counts it. A held
// story is hidden (so it leaves the feeds, search, the sitemap, the Atom feed and the Bluesky feed
// skeletons exactly as a hide does) and its Bluesky post and standard.site document are deleted
// through the announce queue; `moderation` says why. The author is told once: the notification's
// key comes from the hold's own time and reasons. The story joins the operators' review queue.
// An operator's hold (quarantine-story.ts) tells the author and joins the queue the same way.
import type { PutAction } from '../../store/actions.ts';
import { and, type Condition } from '../../store/condition.ts';
import { joinReviewQueue } from '../../store/moderation/review-queue-items.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { listed, unlistAnnouncement } from '../../store/story/announce/items.ts';
import type { FlagReason } from '../../store/story/flag-items.ts';
import { type ModerationState, moderationAsRead } from '../../store/story/moderation-state.ts';
import { notificationItem } from '../../store/story/notification-items.ts';
import { FEED_INDEX_ATTRIBUTES, type StoryMeta } from '../../store/story/story-items.ts';

/** The account name a moderation notification carries instead of the flaggers' or the operator's. */
export const MODERATION_ACTOR = 'lorebook';

export interface QuarantineChange {
  set: Record<string, unknown>;
  remove: string[];
  /** Listed and never moderated, as read, plus what the announce-queue decision was made from. */
  condition: Condition;
  /** The author's notification and the review queue's entry. */
  puts: PutAction[];
  moderation: ModerationState;
}

export function quarantine(meta: StoryMeta, reasons: readonly FlagReason[], flags: number, at: string): QuarantineChange {
  const moderation: ModerationState = { state: 'quarantined', reasons: [...new Set(reasons)].sort(), since: at, flags };
  const queue = unlistAnnouncement(meta, at);
  // @NOTE moderation absent as read: an operator's hold and restore may both land between this
  // flag's read and its commit (leaving the count and the listing as read); a restored story is
  // never held again by flags.
  const guard = and(listed, moderationAsRead(undefined));
  return {
    set: { hidden: true, moderation, ...queue.set },
    remove: [...FEED_INDEX_ATTRIBUTES, ...queue.remove],
    condition: queue.condition === undefined ? guard : and(guard, queue.condition),
    puts: [
      moderationNotice(
        meta,
        moderation,
        `"${meta.title}" is held for review: ${flags} readers flagged it (${moderation.reasons.join(', ')}). It is out of the feeds and search, and its Bluesky post is being removed; you can still read and edit it. ${APPEAL_TEXT}`,
      ),
      heldEntry(meta, moderation),
    ],
    moderation,
  };
}

/** The author's notification of a moderation action, keyed by the action's time and state. */
export function moderationNotice(meta: StoryMeta, moderation: ModerationState, text: string): PutAction {
  return createItem(
    notificationItem({
      recipient: meta.author,
      kind: 'moderation',
      story: meta.slug,
      story_title: meta.title,
      actor: MODERATION_ACTOR,
      actor_handle: MODERATION_ACTOR,
      text,
      at: moderation.since,
      discriminator: JSON.stringify([moderation.state, moderation.reasons, moderation.reason ?? null]),
    }),
  );
}

/** The review queue's entry of a hold, at the hold's time. */
export function heldEntry(meta: StoryMeta, moderation: ModerationState): PutAction {
  return joinReviewQueue({
    kind: 'held',
    slug: meta.slug,
    title: meta.title,
    author: meta.author,
    at: moderation.since,
    since: moderation.since,
    reasons: moderation.reasons,
    flags: moderation.flags,
    ...(moderation.reason === undefined ? {} : { reason: moderation.reason }),
  });
}

/** How an author asks for a review. */
export const APPEAL_TEXT =
  "Withdrawing flags does not lift a hold: only the instance's operator can restore the story. If you think it was held by mistake, appeal once with appeal_moderation and a short note (docs/moderation.md).";
