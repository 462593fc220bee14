// The hold itself (docs/moderation.md, design §25): the flag that brings the counted flags to
// LOREBOOK_QUARANTINE_FLAGS writes it in the same conditioned META update that counts it. A held
// story is hidden (so it leaves the feeds, search, the sitemap, the Atom feed and the Bluesky feed
// skeletons exactly as a hide does) and its Bluesky post and standard.site document are deleted
// through the announce queue; `moderation` says why. The author is told once: the notification's
// key comes from the hold's own time and reasons.
import type { PutAction } from '../../store/actions.ts';
import { and, type Condition } from '../../store/condition.ts';
import { listed, unlistAnnouncement } from '../../store/story/announce-items.ts';
import type { FlagReason } from '../../store/story/flag-items.ts';
import type { ModerationState } from '../../store/story/moderation-state.ts';
import { notificationItem } from '../../store/story/notification-items.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { FEED_INDEX_ATTRIBUTES, type StoryMeta } from '../../store/story/story-items.ts';

/** The account name a moderation notification carries instead of the flaggers', who stay anonymous. */
export const MODERATION_ACTOR = 'lorebook';

export interface QuarantineChange {
  set: Record<string, unknown>;
  remove: string[];
  /** Listed as read, plus what the announce-queue decision was made from. */
  condition: Condition;
  notification: PutAction;
  moderation: ModerationState;
}

export function quarantine(meta: StoryMeta, reasons: readonly FlagReason[], flags: number, at: string): QuarantineChange {
  const moderation: ModerationState = { state: 'quarantined', reasons: [...new Set(reasons)].sort(), since: at, flags };
  const queue = unlistAnnouncement(meta, at);
  return {
    set: { hidden: true, moderation, ...queue.set },
    remove: [...FEED_INDEX_ATTRIBUTES, ...queue.remove],
    condition: queue.condition === undefined ? listed : and(listed, queue.condition),
    notification: createItem(
      notificationItem({
        recipient: meta.author,
        kind: 'moderation',
        story: meta.slug,
        story_title: meta.title,
        actor: MODERATION_ACTOR,
        actor_handle: MODERATION_ACTOR,
        text: `"${meta.title}" is held for review: ${flags} readers flagged it (${moderation.reasons.join(', ')}). It is out of the feeds and search, and its Bluesky post is being removed; you can still read and edit it. ${APPEAL_TEXT}`,
        at,
        discriminator: JSON.stringify(moderation.reasons),
      }),
    ),
    moderation,
  };
}

/** How an author asks for a review, until appeals have their own tool. */
export const APPEAL_TEXT =
  "Withdrawing flags does not lift a hold: only the instance's operator can restore the story. If you think it was held by mistake, contact the operator (docs/moderation.md).";
