// Item mappers for a story: META (small, everything lists need), BODY (the current markdown) and
// REV#n (every revision, kept). Domain types in, plain items out; nothing here talks to DynamoDB.
import type { CapabilityReport } from '../../domain/capability/report.ts';
import type { ScannedStory } from '../../domain/capability/scanned-story.ts';
import type { RelatedStory } from '../../domain/story/story-relation.ts';
import type { StoredItem } from '../actions.ts';
import { announcePartition, authorPartition, bodyKey, feedPartition, listSortKey, revisionKey, storyKey } from '../keys.ts';
import { type ItemsByKey, pick } from '../read-items.ts';
import { INDEXES } from '../schema.ts';
import { ANNOUNCE_PROGRESS_ATTRIBUTES, type AnnounceProgress, toAnnounceProgress } from './announce/progress.ts';
import type { DriftFlag } from './drift-flag.ts';
import type { FlagReason } from './flag-items.ts';
import type { BanHold, ModerationState } from './moderation-state.ts';

export const COUNT_BUCKETS = ['worked', 'partial', 'failed', 'has_problem', 'no_problem'] as const;
export type CountBucket = (typeof COUNT_BUCKETS)[number];
export type Counts = Record<CountBucket, number>;

export const zeroCounts = (): Counts => ({ worked: 0, partial: 0, failed: 0, has_problem: 0, no_problem: 0 });

export type RevisionKind = 'publish' | 'republish' | 'rephrase' | 'addition' | 'correction' | 'redaction';

/** META as the app sees it: reproducers as an array (stored as a string set, absent when empty). */
export interface StoryMeta {
  slug: string;
  author: string;
  title: string;
  summary: string;
  tags: string[];
  type: string;
  status: string;
  reproducible: boolean;
  visibility: 'public' | 'private';
  hidden: boolean;
  date: string;
  stack: string[];
  image?: string;
  image_alt?: string;
  agent?: string;
  model?: string;
  has_check: boolean;
  content_hash: string;
  revision: number;
  published_at: string;
  updated_at: string;
  /** Counted results: by established accounts only for reproductions (design.md#new-accounts). */
  counts: Counts;
  /** The counted reproducers, new accounts' included. */
  reproducers: string[];
  /** Reproduction results counted from accounts that were new at their first report; absent until the first. */
  new_counts?: Pick<Counts, 'worked' | 'partial' | 'failed'>;
  /** Listed in the public feed index. */
  in_feed: boolean;
  /** The announcer's bookkeeping, apart from the content. */
  announce: AnnounceProgress;
  /**
   * The related stories its first publish answered, kept so every later publish answer of it
   * lists the same ones; absent on stories first published before publish answered them.
   */
  similar?: RelatedStory[];
  /** The fail stories this success story answers now (design.md#answered-fail); absent when none. */
  answers?: string[];
  /**
   * The capability report of the current revision's text (docs/capability.md), under the scanner
   * version that made it; absent on stories last written before publish scanned them.
   */
  capability?: CapabilityReport;
  /**
   * "Changed since publish" (design.md#drift): absent unless enough reproducers corroborated a drifted hash since the last
   * content change.
   */
  drift?: DriftFlag;
  /** The account that drafted it for its author (docs/design.md#drafts); absent when the author wrote it. */
  drafted_by?: string;
  /**
   * Every revision below this one has had its markdown removed, or is being stripped (design.md#redaction-export); absent when
   * never redacted.
   */
  redacted_below?: number;
  /** Counted reader flags (docs/moderation.md): absent until the first. */
  flag_count?: number;
  /** The counted flaggers and their reasons; absent until the first counted flag. */
  flaggers?: Record<string, FlagReason>;
  /** Absent unless the story was held for review. */
  moderation?: ModerationState;
  /** Present while the author's ban holds it (design.md#bans). */
  ban_hold?: BanHold;
}

/** What a revision keeps of its capability report: enough to tell which text and version it was. */
export type CapabilitySummary = Pick<CapabilityReport, 'tier' | 'scanner_version' | 'sha256'>;

export function capabilitySummary(report: CapabilityReport): CapabilitySummary {
  return { tier: report.tier, scanner_version: report.scanner_version, sha256: report.sha256 };
}

/** The fields a content write replaces; counts, reproductions, checks, announce state and date are kept. */
export function storyContentFields(story: ScannedStory): Record<string, unknown> {
  const fm = story.frontMatter;
  return {
    title: fm.title,
    summary: story.summary,
    tags: fm.tags,
    type: fm.type,
    status: fm.status,
    reproducible: fm.reproducible,
    visibility: fm.visibility,
    stack: fm.stack,
    image: fm.image,
    image_alt: fm.image_alt,
    agent: fm.agent,
    model: fm.model,
    has_check: story.hasCheck,
    content_hash: story.contentHash,
    capability: story.capability,
  };
}

/** Optional content fields a republish may drop: REMOVE them rather than storing null. */
export const OPTIONAL_CONTENT_FIELDS = ['image', 'image_alt', 'agent', 'model'] as const;

export function feedIndexFields(slug: string, publishedAt: string): Record<string, string> {
  return {
    [INDEXES.feed.partition]: feedPartition(publishedAt),
    [INDEXES.feed.sort]: listSortKey(publishedAt, slug),
  };
}

export function announceQueueFields(slug: string, dueAt: string): Record<string, string> {
  return {
    [INDEXES.announce.partition]: announcePartition,
    [INDEXES.announce.sort]: listSortKey(dueAt, slug),
  };
}

export const FEED_INDEX_ATTRIBUTES = [INDEXES.feed.partition, INDEXES.feed.sort] as const;
export const ANNOUNCE_QUEUE_ATTRIBUTES = [INDEXES.announce.partition, INDEXES.announce.sort] as const;

export function isListedPublicly(visibility: string, hidden: boolean): boolean {
  return visibility === 'public' && !hidden;
}

export interface NewStory {
  slug: string;
  author: string;
  story: ScannedStory;
  at: string;
  similar: readonly RelatedStory[];
}

/** META of a first publish: revision 1, zero counts, in the feed and announce queue when public. */
export function newStoryMetaItem({ slug, author, story, at, similar }: NewStory): StoredItem {
  const listed = isListedPublicly(story.frontMatter.visibility, false);
  return {
    ...storyKey(slug),
    slug,
    author,
    date: story.frontMatter.date,
    ...storyContentFields(story),
    hidden: false,
    revision: 1,
    published_at: at,
    updated_at: at,
    counts: zeroCounts(),
    similar,
    [INDEXES.author.partition]: authorPartition(author),
    [INDEXES.author.sort]: listSortKey(at, slug),
    ...(listed ? feedIndexFields(slug, at) : {}),
    ...(listed ? announceQueueFields(slug, at) : {}),
  };
}

export function bodyItem(slug: string, story: ScannedStory, revision: number): StoredItem {
  return { ...bodyKey(slug), markdown: story.markdown, sections: story.sections, narrative: story.narrative, revision };
}

export interface RevisionRecord {
  kind: RevisionKind;
  note?: string;
  source?: string;
  at: string;
  by: string;
}

export function revisionItem(slug: string, revision: number, story: ScannedStory, record: RevisionRecord): StoredItem {
  return {
    ...revisionKey(slug, revision),
    revision,
    ...record,
    content_hash: story.contentHash,
    capability: capabilitySummary(story.capability),
    markdown: story.markdown,
  };
}

export function toStoryMeta(item: StoredItem): StoryMeta {
  const reproducers = item.reproducers instanceof Set ? [...(item.reproducers as Set<string>)].sort() : [];
  const content: StoredItem = { ...item };
  for (const attribute of ANNOUNCE_PROGRESS_ATTRIBUTES) delete content[attribute];
  const meta = { ...content, reproducers, hidden: item.hidden === true } as unknown as StoryMeta & Record<string, unknown>;
  meta.in_feed = item[INDEXES.feed.partition] !== undefined;
  meta.announce = toAnnounceProgress(item);
  meta.counts = { ...zeroCounts(), ...(item.counts as Partial<Counts> | undefined) };
  return meta;
}

/** The story in a snapshot, if it exists. */
export function storyMetaOf(read: ItemsByKey, slug: string): StoryMeta | undefined {
  const item = pick(read, storyKey(slug));
  return item === undefined ? undefined : toStoryMeta(item);
}
