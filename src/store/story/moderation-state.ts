// A story's moderation state on META (docs/moderation.md): absent while nobody has held it.
// `quarantined` is set by the flag that crosses the threshold, or by an operator, in the same
// conditioned write as `hidden: true`, so every place that honours `hidden` (feeds, search,
// sitemap, the announce queue's own conditions) honours a hold too. `restored` is the state an
// operator's review leaves: listed again, and never held again by further flags. `since` names the
// action: an author appeals it once.
import type { Condition } from '../condition.ts';
import type { FlagReason } from './flag-items.ts';

export const MODERATION_STATES = ['quarantined', 'restored'] as const;
export type ModerationStateName = (typeof MODERATION_STATES)[number];

export interface ModerationAppeal {
  note: string;
  at: string;
}

export interface ModerationState {
  state: ModerationStateName;
  /** The reasons of the counted flags that held it, sorted. */
  reasons: FlagReason[];
  /** When it entered this state (ISO): the action an appeal names. */
  since: string;
  /** The counted flags at that moment. */
  flags: number;
  /** The operator's reason, when an operator put it in this state. */
  reason?: string;
  /** The author's appeal of this state, once per action. */
  appeal?: ModerationAppeal;
}

/** On a story a ban holds (design.md#bans): when, and the moderation state the hold replaced. */
export interface BanHold {
  since: string;
  /** The moderation state the hold replaced (a story an operator restored before). */
  before?: ModerationState;
}

/** Held for review: only an operator lifts it, never the author's unhide or a flag's withdrawal. */
export function isQuarantined(meta: { moderation?: ModerationState | undefined }): boolean {
  return meta.moderation?.state === 'quarantined';
}

/** META still in the moderation state read (or still never moderated): what an operator action and an appeal decide from. */
export function moderationAsRead(moderation: ModerationState | undefined): Condition {
  return moderation === undefined
    ? { expression: 'attribute_not_exists(#moderation)', names: { '#moderation': 'moderation' } }
    : {
        expression: '#moderation.#since = :readSince',
        names: { '#moderation': 'moderation', '#since': 'since' },
        values: { ':readSince': moderation.since },
      };
}
