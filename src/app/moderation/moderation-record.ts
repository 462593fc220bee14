// What an operator reads (docs/moderation.md, design.md#operators-audit): the review queue, newest first, and one
// story's whole moderation record — its state and appeal, its reader flags with their notes (who
// flagged is shown to the operator, never to the author), and its audit records.
import { notFound } from '../../domain/errors.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import { storyKey } from '../../store/keys.ts';
import { queryTargetAudit } from '../../store/moderation/audit-query.ts';
import type { ReviewEntry } from '../../store/moderation/review-queue-items.ts';
import { queryReviewQueue } from '../../store/moderation/review-queue-query.ts';
import { queryStoryFlags } from '../../store/moderation/story-flags-query.ts';
import { readItem } from '../../store/read-items.ts';
import type { StoryFlag } from '../../store/story/flag-items.ts';
import type { ModerationState } from '../../store/story/moderation-state.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { isTombstone } from '../../store/story/story-tombstone.ts';
import type { AppContext } from '../context/app-context.ts';

export const MAX_QUEUE_LIMIT = 200;

export async function reviewQueue(ctx: AppContext, limit: number): Promise<ReviewEntry[]> {
  return queryReviewQueue(ctx.store, Math.min(Math.max(1, Math.floor(limit)), MAX_QUEUE_LIMIT));
}

export interface ModerationRecord {
  slug: string;
  title: string;
  author: string;
  visibility: string;
  hidden: boolean;
  flag_count: number;
  moderation: ModerationState | null;
  flags: StoryFlag[];
  audit: Record<string, unknown>[];
}

export async function moderationRecord(ctx: AppContext, rawSlug: string): Promise<ModerationRecord> {
  const slug = parseSlug(rawSlug);
  const item = await readItem(ctx.store, storyKey(slug));
  if (item === undefined || isTombstone(item)) throw notFound(slug);
  const meta = toStoryMeta(item);
  const [flags, audit] = await Promise.all([queryStoryFlags(ctx.store, slug), queryTargetAudit(ctx.store, storyKey(slug).PK)]);
  return {
    slug,
    title: meta.title,
    author: meta.author,
    visibility: meta.visibility,
    hidden: meta.hidden,
    flag_count: meta.flag_count ?? 0,
    moderation: meta.moderation ?? null,
    flags,
    audit,
  };
}
