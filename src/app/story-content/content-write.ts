// The shared heart of publish_story (republish) and edit_story: a new revision of an existing
// story, conditioned on the revision the caller based it on (docs/design.md#write-rules). When the condition
// fails the re-plan sees the new state: the same content means the writes converged; anything
// else is revision_conflict. A content write never re-applies on top of a newer revision.

import type { ScannedStory } from '../../domain/capability/scanned-story.ts';
import { LorebookError } from '../../domain/errors.ts';
import type { WriteAction } from '../../store/actions.ts';
import { and, type Condition } from '../../store/condition.ts';
import { storyKey } from '../../store/keys.ts';
import { checkItem, createItem, replaceItem } from '../../store/replace-by-key.ts';
import { listAnnouncement, reviseAnnouncement, unlistAnnouncement } from '../../store/story/announce/items.ts';
import { driftFlagCleared } from '../../store/story/drift-flag.ts';
import { addFeedMonth, feedMonth } from '../../store/story/feed-months.ts';
import { type CorrectionEvent, correctionOutboxItem, correctionRecipients } from '../../store/story/outbox-items.ts';
import {
  bodyItem,
  capabilitySummary,
  FEED_INDEX_ATTRIBUTES,
  feedIndexFields,
  isListedPublicly,
  OPTIONAL_CONTENT_FIELDS,
  type RevisionRecord,
  revisionItem,
  type StoryMeta,
  storyContentFields,
} from '../../store/story/story-items.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import type { StoredContentOutcome } from '../contract/content-outcome.ts';
import type { WritePlan } from '../write/write-once.ts';
import type { AnswerLinkPlan } from './answer-links.ts';

export const storyPath = (slug: string): string => `/s/${slug}`;

/** The story page's absolute URL, on the public base URL. */
export const storyUrl = (ctx: AppContext, slug: string): string => `${ctx.config.publicBaseUrl}${storyPath(slug)}`;

/**
 * The answer with the story page's absolute URL as both `url` and `story_url`, so an agent can give
 * either to a person. Added after the write rather than stored, so an op record from before either
 * was absolute (its `url` a path) replays with them too.
 */
export function withStoryUrl<O extends StoredContentOutcome>(ctx: AppContext, outcome: O): O & { url: string; story_url: string } {
  const url = storyUrl(ctx, outcome.slug);
  return { ...outcome, url, story_url: url };
}

export function contentOutcome(
  meta: Pick<StoryMeta, 'slug' | 'revision' | 'content_hash' | 'title' | 'visibility' | 'hidden' | 'capability'>,
): StoredContentOutcome {
  return {
    slug: meta.slug,
    revision: meta.revision,
    content_hash: meta.content_hash,
    title: meta.title,
    visibility: meta.visibility,
    hidden: meta.hidden,
    url: storyPath(meta.slug),
    // A story last written before publish scanned stories has none; an identical republish keeps it so.
    capability: meta.capability === undefined ? null : capabilitySummary(meta.capability),
  };
}

type WithoutCapability = Omit<StoredContentOutcome, 'capability'>;

/**
 * An op record stored before content writes answered `capability` (up to a day of them when this
 * deploys) replays with null, "not scanned", rather than fail the output schema.
 */
export function withCapabilityField<O extends WithoutCapability>(outcome: O): O & Pick<StoredContentOutcome, 'capability'> {
  const stored = (outcome as { capability?: StoredContentOutcome['capability'] }).capability;
  return { ...outcome, capability: stored ?? null };
}

/** Identical content: nothing to write. With an op_id, the op commits with a check that it still is. */
export function planUnchanged(meta: StoryMeta): WritePlan<StoredContentOutcome> {
  return {
    outcome: contentOutcome(meta),
    actions: [],
    guards: [
      checkItem(storyKey(meta.slug), {
        expression: 'content_hash = :hash AND revision = :revision',
        values: { ':hash': meta.content_hash, ':revision': meta.revision },
      }),
    ],
  };
}

export interface NewRevision {
  meta: StoryMeta;
  story: ScannedStory;
  caller: Caller;
  /** The revision the caller based the change on: base_revision, or the revision first read. */
  baseRevision: number;
  record: Pick<RevisionRecord, 'kind' | 'note' | 'source'>;
  at: string;
  /** Months already in the feed index, so a newly listed story's month is added once. */
  feedMonths: readonly string[];
  /** The fail stories this revision answers (./answer-links.ts); written only when the content changes. */
  links?: AnswerLinkPlan;
  /** META fields the kind of write sets beside the content (a redaction's `redacted_below`). */
  alsoSet?: Record<string, unknown>;
}

export function revisionConflict(meta: StoryMeta, baseRevision: number): LorebookError {
  return new LorebookError(
    'revision_conflict',
    `"${meta.slug}" is at revision ${meta.revision}, but your change was based on revision ${baseRevision}. Read the story again (get_story), apply your change to the current text, and send it with base_revision ${meta.revision}.`,
    { details: { slug: meta.slug, current_revision: meta.revision, base_revision: baseRevision } },
  );
}

/** A new revision's plan, and how many reproducers its outbox event tells (0 when it writes none). */
export interface RevisionPlan extends WritePlan<StoredContentOutcome> {
  notified: number;
}

export function planNewRevision(change: NewRevision): RevisionPlan {
  const { meta, story, caller, at } = change;
  // Identical content tells nobody: neither a repeat of this edit nor an edit that changes nothing.
  if (meta.content_hash === story.contentHash) return { ...planUnchanged(meta), notified: 0 };
  if (meta.revision !== change.baseRevision) throw revisionConflict(meta, change.baseRevision);

  const revision = meta.revision + 1;
  const content = storyContentFields(story);
  const listed = isListedPublicly(story.frontMatter.visibility, meta.hidden);
  const set: Record<string, unknown> = { ...change.alsoSet, revision, updated_at: at };
  for (const [field, value] of Object.entries(content)) if (value !== undefined) set[field] = value;
  const remove: string[] = OPTIONAL_CONTENT_FIELDS.filter((field) => content[field] === undefined);
  // A content change ends "changed since publish" (design.md#drift).
  remove.push(...driftFlagCleared());
  const actions: WriteAction[] = [...(change.links?.actions ?? [])];
  if (change.links !== undefined && change.links.answers.length > 0) set.answers = change.links.answers;
  else if (meta.answers !== undefined) remove.push('answers');
  let queueCondition: Condition | undefined;

  if (listed && !meta.in_feed) {
    Object.assign(set, feedIndexFields(meta.slug, meta.published_at));
    if (!change.feedMonths.includes(feedMonth(meta.published_at))) actions.push(addFeedMonth(feedMonth(meta.published_at)));
    // Made public: owed an announcement if it never had one; a post whose deletion has not run yet stays.
    const queue = listAnnouncement(meta, at, revision);
    Object.assign(set, queue.set);
    remove.push(...queue.remove);
    queueCondition = queue.condition;
  }
  // Still listed: a story that reached Bluesky owes its document the new revision (design.md#standard-site).
  const revised = listed && meta.in_feed ? reviseAnnouncement(meta, at) : undefined;
  if (!listed && meta.in_feed) {
    remove.push(...FEED_INDEX_ATTRIBUTES);
    // Made private: never announced leaves the queue; a post (or a possible one) is deleted.
    const queue = unlistAnnouncement(meta, at);
    Object.assign(set, queue.set);
    remove.push(...queue.remove);
    queueCondition = queue.condition;
  }
  const asRead: Condition = {
    expression: 'revision = :base AND #hidden = :hidden',
    names: { '#hidden': 'hidden' },
    values: { ':base': meta.revision, ':hidden': meta.hidden },
  };

  actions.push(
    // The hidden flag is part of the condition: a hide changes no revision, and without it an edit
    // planned before the hide would put the hidden story back in the feed.
    updateItem(storyKey(meta.slug), { set, remove, ...revised }, queueCondition === undefined ? asRead : and(asRead, queueCondition)),
    createItem(revisionItem(meta.slug, revision, story, { ...change.record, at, by: caller.account })),
    replaceItem(bodyItem(meta.slug, story, revision)),
  );
  const correction = change.record.kind === 'correction' ? correctionEvent(change, revision) : undefined;
  const told = correction === undefined ? [] : correctionRecipients(correction);
  if (correction !== undefined && told.length > 0) actions.push(createItem(correctionOutboxItem(correction)));
  return {
    outcome: contentOutcome({
      ...meta,
      revision,
      content_hash: story.contentHash,
      title: story.frontMatter.title,
      visibility: story.frontMatter.visibility,
      capability: story.capability,
    }),
    actions,
    guards: [],
    notified: told.length,
  };
}

function correctionEvent(change: NewRevision, revision: number): CorrectionEvent {
  return {
    kind: 'correction',
    slug: change.meta.slug,
    title: change.story.frontMatter.title,
    revision,
    note: change.record.note ?? '',
    actor: change.caller.account,
    actor_handle: change.caller.handle,
    at: change.at,
    recipients: change.meta.reproducers,
  };
}
