// A story whose author deleted their account (design.md#account-deletion): META stays as a tombstone so the page
// answers 410 and the slug is never given out again; nothing of its text or its people is kept.
// It keeps the slug, published_at (the Bluesky record key is derived from them) and the
// announcer's fields, so the announce queue can delete its post and document (design.md#announcement, design.md#standard-site).
import type { UpdateAction } from '../actions.ts';
import { and, type Condition } from '../condition.ts';
import { storyKey } from '../keys.ts';
import { INDEXES } from '../schema.ts';
import { updateItem } from '../update-item.ts';
import { unlistAnnouncement } from './announce/items.ts';
import type { StoryMeta } from './story-items.ts';

/** What a tombstone drops: every content and people field, and the feed index. */
const DROPPED = [
  'title',
  'summary',
  'tags',
  'type',
  'status',
  'reproducible',
  'stack',
  'image',
  'image_alt',
  'agent',
  'model',
  'has_check',
  'content_hash',
  'counts',
  'reproducers',
  'similar',
  'answers',
  'capability',
  'drift',
  'drafted_by',
  'date',
  INDEXES.feed.partition,
  INDEXES.feed.sort,
] as const;

const byAuthor = (account: string): Condition => ({
  expression: '#author = :author',
  names: { '#author': 'author' },
  values: { ':author': account },
});

/** META of a story whose author deleted their account. */
export const isTombstone = (item: Record<string, unknown>): boolean => typeof item.deleted_at === 'string';

/**
 * META becomes the tombstone: hidden, `deleted_at`, the author kept only as the guard of the
 * next step, queued for the post's deletion when it was posted or may have been (the hide path's
 * rule). Conditioned on the author, so it never lands on another author's story.
 */
export function tombstoneStory(meta: StoryMeta, account: string, at: string): UpdateAction {
  const queue = unlistAnnouncement(meta, at);
  return updateItem(
    storyKey(meta.slug),
    { set: { hidden: true, deleted_at: at, ...queue.set }, remove: [...DROPPED, ...queue.remove] },
    queue.condition === undefined ? byAuthor(account) : and(byAuthor(account), queue.condition),
  );
}

/** The last touch once every child item is gone: off the author index, and the author's id dropped. */
export function forgetStoryAuthor(slug: string, account: string): UpdateAction {
  return updateItem(
    storyKey(slug),
    { set: { author: '' }, remove: [INDEXES.author.partition, INDEXES.author.sort] },
    and(byAuthor(account), { expression: 'attribute_exists(#deleted)', names: { '#deleted': 'deleted_at' } }),
  );
}
