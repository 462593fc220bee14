// Who put a story in its moderation state (docs/moderation.md, design.md#bans): `ban` while the
// author's suspension holds it (`ban_hold` on META), `operator` when an operator held or restored
// it (the operator's reason is kept), `readers` when their flags crossed the threshold. The page,
// the .md, get_story's `moderation` and the refusal to unhide say the matching sentence.
import type { StoryMeta } from '../../store/story/story-items.ts';

export const HELD_BY = ['readers', 'operator', 'ban'] as const;
export type HeldBy = (typeof HELD_BY)[number];

export function heldBy(meta: Pick<StoryMeta, 'moderation' | 'ban_hold'>): HeldBy {
  if (meta.ban_hold !== undefined && meta.moderation?.state === 'quarantined') return 'ban';
  return meta.moderation?.reason === undefined ? 'readers' : 'operator';
}

/** Why a story is held, as its page and get_story say it. */
export function heldBecause(by: HeldBy): string {
  if (by === 'ban') return "This story is held for review because its author's account is suspended.";
  if (by === 'operator') return "This story is held for review by the instance's operator.";
  return 'This story is held for review after readers flagged it.';
}
