// A banned account's stories are held for review (design.md#flags-quarantine's quarantine, design.md#bans): hidden, with
// `moderation` set, off the feeds and search, their Bluesky posts deleted through the announce
// queue — a hide with a reason, decided as set_visibility decides a hide. `ban_hold` on META says
// the ban made the hold (and keeps a moderation state it replaced), so an unban releases exactly
// the stories the ban held: a story its author hid, or readers' flags held, stays as it was.
import type { WriteAction } from '../../../store/actions.ts';
import { and, type Condition } from '../../../store/condition.ts';
import type { SweepKind } from '../../../store/identity/ban-items.ts';
import { feedMonthsKey, storyKey } from '../../../store/keys.ts';
import { pick, readItems } from '../../../store/read-items.ts';
import { listAnnouncement, unlistAnnouncement } from '../../../store/story/announce/items.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../../../store/story/feed-months.ts';
import type { BanHold, ModerationState } from '../../../store/story/moderation-state.ts';
import { FEED_INDEX_ATTRIBUTES, feedIndexFields, isListedPublicly, type StoryMeta, toStoryMeta } from '../../../store/story/story-items.ts';
import { isTombstone } from '../../../store/story/story-tombstone.ts';
import { updateItem } from '../../../store/update-item.ts';
import type { AppContext } from '../../context/app-context.ts';

export async function banStoryMoves(ctx: AppContext, account: string, slug: string, kind: SweepKind, at: string): Promise<WriteAction[]> {
  const read = await readItems(ctx.store, [storyKey(slug), feedMonthsKey]);
  const item = pick(read, storyKey(slug));
  if (item === undefined || isTombstone(item) || item.author !== account) return [];
  const meta = toStoryMeta(item);
  if (kind === 'ban') return meta.hidden ? [] : [hold(meta, at)];
  const held = meta.ban_hold;
  return held === undefined ? [] : release(meta, held, monthsOf(pick(read, feedMonthsKey)), at);
}

/** What the move was decided from: shown or hidden, and the visibility read. */
function asRead(meta: StoryMeta): Condition {
  return {
    expression: '#hidden = :readHidden AND #visibility = :readVisibility',
    names: { '#hidden': 'hidden', '#visibility': 'visibility' },
    values: { ':readHidden': meta.hidden, ':readVisibility': meta.visibility },
  };
}

function hold(meta: StoryMeta, at: string): WriteAction {
  const moderation: ModerationState = { state: 'quarantined', reasons: [], since: at, flags: meta.flag_count ?? 0 };
  const banHold: BanHold = meta.moderation === undefined ? { since: at } : { since: at, before: meta.moderation };
  const queue = unlistAnnouncement(meta, at);
  return updateItem(
    storyKey(meta.slug),
    { set: { hidden: true, moderation, ban_hold: banHold, ...queue.set }, remove: [...FEED_INDEX_ATTRIBUTES, ...queue.remove] },
    queue.condition === undefined ? asRead(meta) : and(asRead(meta), queue.condition),
  );
}

/** set_visibility's unhide, plus the moderation state before the hold. */
function release(meta: StoryMeta, held: BanHold, months: readonly string[], at: string): WriteAction[] {
  const set: Record<string, unknown> = { hidden: false, ...(held.before === undefined ? {} : { moderation: held.before }) };
  const remove: string[] = ['ban_hold', ...(held.before === undefined ? ['moderation'] : [])];
  const actions: WriteAction[] = [];
  let condition = and(asRead(meta), { expression: 'attribute_exists(#banHold)', names: { '#banHold': 'ban_hold' } });
  if (isListedPublicly(meta.visibility, false)) {
    Object.assign(set, feedIndexFields(meta.slug, meta.published_at));
    if (!months.includes(feedMonth(meta.published_at))) actions.push(addFeedMonth(feedMonth(meta.published_at)));
    const queue = listAnnouncement(meta, at, meta.revision);
    Object.assign(set, queue.set);
    remove.push(...queue.remove);
    if (queue.condition !== undefined) condition = and(condition, queue.condition);
  }
  actions.push(updateItem(storyKey(meta.slug), { set, remove }, condition));
  return actions;
}
