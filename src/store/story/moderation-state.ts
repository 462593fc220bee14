// A story's moderation state on META (docs/moderation.md): absent while nobody has held it.
// `quarantined` is set by the flag that crosses the threshold, in the same conditioned write as
// `hidden: true`, so every place that honours `hidden` (feeds, search, sitemap, the announce
// queue's own conditions) honours a hold too. `restored` is the state an operator's review leaves
// (a later slice): the shape is kept ready for it and for an appeal.
import type { FlagReason } from './flag-items.ts';

export const MODERATION_STATES = ['quarantined', 'restored'] as const;
export type ModerationStateName = (typeof MODERATION_STATES)[number];

export interface ModerationState {
  state: ModerationStateName;
  /** The reasons of the counted flags that held it, sorted. */
  reasons: FlagReason[];
  /** When it entered this state (ISO). */
  since: string;
  /** The counted flags at that moment. */
  flags: number;
}

/** Held for review: only an operator lifts it, never the author's unhide or a flag's withdrawal. */
export function isQuarantined(meta: { moderation?: ModerationState | undefined }): boolean {
  return meta.moderation?.state === 'quarantined';
}
