// publish_story — keyed by slug (docs/design.md#write-rules). A first publish creates META, BODY, REV#1 and the
// announce-queue entry in one transaction; a republish by the author is a new revision of the
// content only; identical content writes nothing and answers the same. A slug held by another
// author's story is slug_taken, whether or not the caller can see that story (design.md#slugs-dates-images). A first
// publish dated more than a day ahead is validation_failed.
// A listed story nearly the same as another account's recent one is duplicate_content (design.md#spam-waves).
// The answer lists `similar` stories: searched before the write, kept on META by the first
// publish, so a repeat, a republish and an op_id replay all answer the first publish's list.

import type { ScannedStory } from '../domain/capability/scanned-story.ts';
import { LorebookError, notFound, validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { isValidSlug, slugFor } from '../domain/story/slug.ts';
import { isTooFarAhead, latestStoryDate } from '../domain/story/story-date.ts';
import type { StoryParts } from '../domain/story/story-parts.ts';
import type { RelatedStory } from '../domain/story/story-relation.ts';
import { refusedForLoad } from '../offload/fair-queue.ts';
import type { WriteAction } from '../store/actions.ts';
import type { ItemKey } from '../store/keys.ts';
import { feedMonthsKey, storyKey } from '../store/keys.ts';
import { type ItemsByKey, pick } from '../store/read-items.ts';
import { createItem } from '../store/replace-by-key.ts';
import { heldAnnouncementFields } from '../store/story/announce/hold.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../store/story/feed-months.ts';
import { bodyItem, isListedPublicly, newStoryMetaItem, revisionItem, type StoryMeta, toStoryMeta } from '../store/story/story-items.ts';
import { capabilityRecordRead, withCapabilityRecord } from './capability/capability-record-write.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { countWrite } from './context/metrics.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { type PublishQuota, planPublishQuota, publishDayRead } from './moderation/publish-quota.ts';
import {
  PUBLISH_TOOL,
  type PublishOutcome,
  publishStoryInputSchema,
  publishStoryOutputSchema,
  type StoredPublishOutcome,
} from './publish-story.contract.ts';
import type { SimilarFinder, SimilarQuery } from './search/similar-stories.ts';
import { type AnswerLinkPlan, answerCandidates, answerReads, planAnswerLinks, revisionAnswerLinks } from './story-content/answer-links.ts';
import { contentOutcome, planNewRevision, storyUrl, withCapabilityField, withStoryUrl } from './story-content/content-write.ts';
import { parseStoryOffloaded } from './story-content/parse-story-task.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

/**
 * Where a publish comes from when it is not a plain publish_story: a claimed draft
 * (src/app/drafts/publish-draft.ts). It names its own tool (its op records are its own), adds
 * keys to the snapshot, and rides on the publish's transaction.
 */
export interface PublishSource {
  tool: string;
  /** What the fingerprint covers besides the story (the draft id). */
  fingerprint: Record<string, unknown>;
  reads: readonly ItemKey[];
  /** A first publish of `slug`: the fields META gets and the actions the source adds (both from the snapshot). */
  firstPublish(read: ItemsByKey, slug: string, at: string): { meta: Record<string, unknown>; actions: WriteAction[] };
  /** `slug` is already the caller's story: throws unless that story is what this source published, with this content. */
  existing(read: ItemsByKey, meta: StoryMeta, contentHash: string): void;
}

/**
 * `similar` is a hint, not the write: when the search index is too busy to take the question (a
 * refusal for load, cpu-slots.ts), the story is published with none rather than refused.
 */
async function similarOrNone(related: SimilarFinder, query: SimilarQuery): Promise<RelatedStory[]> {
  try {
    return await related.similar(query);
  } catch (error) {
    if (refusedForLoad(error)) return [];
    throw error;
  }
}

/** `related` is the surface's story search; without one (a script, a test of other rules) `similar` is empty. */
export async function publishStory(
  ctx: AppContext,
  caller: Caller,
  raw: unknown,
  related?: SimilarFinder,
  source?: PublishSource,
): Promise<Replayed<PublishOutcome>> {
  const input = await parseWriteInput(publishStoryInputSchema, raw, source?.tool ?? PUBLISH_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const story: ScannedStory = await parseStoryOffloaded(
    input.markdown !== undefined ? { markdown: input.markdown } : { parts: input.parts as StoryParts },
    ctx,
  );
  const slug = targetSlug(input.slug, story);
  const candidates = answerCandidates(slug, story, ctx.config.publicBaseUrl);
  // Before the write, so the plan stays pure: one search of the in-memory index, used only if
  // this turns out to be the first publish.
  const similar = related === undefined ? [] : await similarOrNone(related, { slug, ...story.frontMatter, summary: story.summary });
  // Only a story that will be listed can start a spam wave or be one (design.md#spam-waves).
  const judged = ctx.config.duplicateWindowHours > 0 && isListedPublicly(story.frontMatter.visibility, false);
  const spamWaves = judged ? await import('./near-duplicate/near-duplicate-guard.ts') : undefined;
  const nearDuplicates = spamWaves?.nearDuplicateGuard(story.markdown, ctx.config.duplicateWindowHours);

  const tool = source?.tool ?? PUBLISH_TOOL;
  const dayKey = publishDayRead(caller, ctx.store.now());
  const outcome = await writeOnce<StoredPublishOutcome>(ctx, {
    tool,
    caller,
    opId,
    // The normalised markdown: the same for text/markdown and JSON parts, CRLF and LF, NFC and NFD.
    fingerprint: fingerprint(tool, { markdown: story.markdown, slug, base_revision: input.base_revision ?? null, ...source?.fingerprint }),
    reads: [
      storyKey(slug),
      feedMonthsKey,
      capabilityRecordRead(story.capability),
      ...answerReads(slug, candidates),
      ...(source?.reads ?? []),
      ...(nearDuplicates?.reads ?? []),
      dayKey,
    ],
    plan(read, { firstRead, now }): WritePlan<StoredPublishOutcome> {
      const at = new Date(now).toISOString();
      const stored = pick(read, storyKey(slug));
      const months = monthsOf(pick(read, feedMonthsKey));
      if (stored === undefined) {
        if (input.slug !== undefined || input.base_revision !== undefined) throw notFound(slug);
        if (isTooFarAhead(story.frontMatter.date, now)) throw dateTooFarAhead(story.frontMatter.date, now);
        const links = planAnswerLinks(
          { slug, title: story.frontMatter.title, published_at: at, hidden: false, previous: [] },
          candidates,
          read,
          caller,
          at,
        );
        const quota = planPublishQuota(ctx, read, caller, { slug, dayKey, now });
        const first = planFirstPublish({
          slug,
          story,
          caller,
          at,
          months,
          similar,
          links,
          quota,
          from: source?.firstPublish(read, slug, at),
        });
        const bands = nearDuplicates?.plan(read, { slug, author: caller.account, at, nowMs: now }) ?? [];
        const recorded = withCapabilityRecord(first, read, {
          report: story.capability,
          visibility: story.frontMatter.visibility,
          hidden: false,
          at,
        });
        return { ...recorded, actions: [...recorded.actions, ...bands] };
      }
      const meta = toStoryMeta(stored);
      // @NOTE Taken even when the caller cannot see the story (private, hidden, deleted): any other
      // answer leaves them no way to publish (design.md#slugs-dates-images). It tells that some story holds this
      // date and title, nothing more.
      if (meta.author !== caller.account) throw slugTaken(slug);
      source?.existing(read, meta, story.contentHash);
      if (meta.date !== story.frontMatter.date) {
        throw validationFailed(`The date of "${slug}" is fixed at its first publish.`, {
          'front_matter.date': `Send date ${meta.date}, the date this story was first published with; it never changes.`,
        });
      }
      const first = pick(firstRead, storyKey(slug));
      const baseRevision = input.base_revision ?? (first === undefined ? 0 : toStoryMeta(first).revision);
      const { notified: _none, ...plan } = planNewRevision({
        meta,
        story,
        caller,
        baseRevision,
        record: { kind: 'republish' },
        at,
        feedMonths: months,
        links: revisionAnswerLinks(meta, story, candidates, read, caller, at),
      });
      const recorded = withCapabilityRecord(plan, read, {
        report: story.capability,
        visibility: story.frontMatter.visibility,
        hidden: meta.hidden,
        at,
      });
      // An identical republish changes nothing, so it is judged by nothing either.
      const bands =
        recorded.actions.length === 0 || meta.hidden
          ? []
          : (nearDuplicates?.plan(read, { slug, author: caller.account, at, nowMs: now }) ?? []);
      return { ...recorded, actions: [...recorded.actions, ...bands], outcome: { ...plan.outcome, similar: meta.similar ?? [] } };
    },
  }).catch(async (error: unknown) => {
    if (spamWaves === undefined) throw error;
    return spamWaves.rethrowKeepingRefusal(ctx, error, {
      account: caller.account,
      slug,
      title: story.frontMatter.title,
      content_hash: story.contentHash,
    });
  });
  return announceAfterCommit(ctx, countWrite(ctx, 'Publishes', publishAnswer(ctx, outcome)));
}

/**
 * The answer on the way out: story_url on the story and on each similar one, from the configured
 * base URL, in the order the output schema lists its fields (META and the op record give maps back
 * in an order of their own, and a replay answers the first answer's bytes). An op record stored
 * before publish answered `similar` or `capability` (up to a day of them when this deploys)
 * replays with an empty list and null rather than fail the output schema.
 */
function publishAnswer(ctx: AppContext, outcome: Replayed<StoredPublishOutcome>): Replayed<PublishOutcome> {
  const stored: RelatedStory[] = Array.isArray(outcome.similar) ? outcome.similar : [];
  const similar = stored.map((related) => ({ ...related, story_url: storyUrl(ctx, related.slug) }));
  return publishStoryOutputSchema.parse({ ...withStoryUrl(ctx, withCapabilityField(outcome)), similar });
}

function targetSlug(explicit: string | undefined, story: ScannedStory): string {
  if (explicit === undefined) return slugFor(story.frontMatter.date, story.frontMatter.title);
  if (!isValidSlug(explicit)) {
    throw validationFailed('The slug is not a lorebook slug.', {
      slug: 'Pass the slug of one of your stories exactly as get_story or publish_story returned it, or leave slug out to publish a new story.',
    });
  }
  return explicit;
}

interface FirstPublish {
  slug: string;
  story: ScannedStory;
  caller: Caller;
  at: string;
  months: readonly string[];
  similar: RelatedStory[];
  links: AnswerLinkPlan;
  quota: PublishQuota;
  from: ReturnType<PublishSource['firstPublish']> | undefined;
}

function planFirstPublish({ slug, story, caller, at, months, similar, links, quota, from }: FirstPublish): WritePlan<StoredPublishOutcome> {
  const listed = isListedPublicly(story.frontMatter.visibility, false);
  const meta = {
    ...newStoryMetaItem({ slug, author: caller.account, story, at, similar }),
    // A new account's story waits on the queue until the account is established (design.md#new-accounts).
    ...(quota.heldUntil === undefined ? {} : heldAnnouncement(slug, quota.heldUntil, listed)),
    ...(links.answers.length > 0 ? { answers: links.answers } : {}),
    ...from?.meta,
  };
  return {
    outcome: {
      ...contentOutcome({
        slug,
        revision: 1,
        content_hash: story.contentHash,
        title: story.frontMatter.title,
        visibility: story.frontMatter.visibility,
        hidden: false,
        capability: story.capability,
      }),
      similar,
    },
    actions: [
      createItem(meta),
      quota.count,
      createItem(bodyItem(slug, story, 1)),
      createItem(revisionItem(slug, 1, story, { kind: 'publish', at, by: caller.account })),
      ...(listed && !months.includes(feedMonth(at)) ? [addFeedMonth(feedMonth(at))] : []),
      ...links.actions,
      ...(from?.actions ?? []),
    ],
    guards: [],
  };
}

/** The hold's fields; on the queue only when the story is listed (an unlisted one joins it when listed, at the hold's time). */
function heldAnnouncement(slug: string, until: string, listed: boolean): Record<string, string> {
  const fields = heldAnnouncementFields(slug, until, 'new_account');
  return listed ? fields : { held_until: fields.held_until as string, held_reason: fields.held_reason as string };
}

function slugTaken(slug: string): LorebookError {
  return new LorebookError(
    'slug_taken',
    `The slug "${slug}" is held by another author's story (one you may not be able to see), and a slug is never given out twice. The slug is made from the date and the title: change the title (a word more is enough) and publish again.`,
    { details: { slug } },
  );
}

function dateTooFarAhead(date: string, nowMs: number): LorebookError {
  const latest = latestStoryDate(nowMs);
  return validationFailed(`The date ${date} is more than a day in the future.`, {
    'front_matter.date': `Use the day you write the story in your own time zone, YYYY-MM-DD: ${latest} at the latest now.`,
  });
}
