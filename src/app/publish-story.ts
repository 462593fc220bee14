// publish_story — keyed by slug (docs/design.md §4). A first publish creates META, BODY, REV#1 and the
// announce-queue entry in one transaction; a republish by the author is a new revision of the
// content only; identical content writes nothing and answers the same. Another author's slug is
// slug_taken when the caller can see that story, and not_found (as an unknown slug) when not.
import { LorebookError, notFound, validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { isValidSlug, slugFor } from '../domain/story/slug.ts';
import type { StoryParts } from '../domain/story/story-parts.ts';
import type { ParsedStory } from '../domain/story/story-types.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../store/story/feed-months.ts';
import { feedMonthsKey, storyKey } from '../store/keys.ts';
import { pick } from '../store/read-items.ts';
import { createItem } from '../store/replace-by-key.ts';
import { bodyItem, isListedPublicly, newStoryMetaItem, revisionItem, toStoryMeta } from '../store/story/story-items.ts';
import type { AppContext, Caller } from './app-context.ts';
import { contentOutcome, planNewRevision, withStoryUrl } from './content-write.ts';
import type { ContentOutcome, StoredContentOutcome } from './contract/content-outcome.ts';
import { parseInput } from './parse-input.ts';
import { PUBLISH_TOOL, publishStoryInputSchema } from './publish-story.contract.ts';
import { parseStoryOffloaded } from './parse-story-task.ts';
import { announceAfterCommit } from './announce-after-commit.ts';
import { canSee } from './story-access.ts';
import { writeOnce, type Replayed, type WritePlan } from './write-once.ts';

export async function publishStory(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<ContentOutcome>> {
  const input = parseInput(publishStoryInputSchema, raw, PUBLISH_TOOL);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const story: ParsedStory = await parseStoryOffloaded(
    input.markdown !== undefined ? { markdown: input.markdown } : { parts: input.parts as StoryParts },
  );
  const slug = targetSlug(input.slug, story);

  const outcome = await writeOnce(ctx, {
    tool: PUBLISH_TOOL,
    caller,
    opId,
    // The normalised markdown: the same for text/markdown and JSON parts, CRLF and LF, NFC and NFD.
    fingerprint: fingerprint(PUBLISH_TOOL, { markdown: story.markdown, slug, base_revision: input.base_revision ?? null }),
    reads: [storyKey(slug), feedMonthsKey],
    plan(read, { firstRead, now }): WritePlan<StoredContentOutcome> {
      const at = new Date(now).toISOString();
      const stored = pick(read, storyKey(slug));
      const months = monthsOf(pick(read, feedMonthsKey));
      if (stored === undefined) {
        if (input.slug !== undefined || input.base_revision !== undefined) throw notFound(slug);
        return planFirstPublish(slug, story, caller, at, months);
      }
      const meta = toStoryMeta(stored);
      // Another author's private or hidden story answers exactly as an unknown slug does, so
      // publishing cannot probe which unseen slugs exist; only a story the caller can see is "taken".
      if (meta.author !== caller.account) throw canSee(meta, caller) ? slugTaken(slug) : notFound(slug);
      if (meta.date !== story.frontMatter.date) {
        throw validationFailed(`The date of "${slug}" is fixed at its first publish.`, {
          'front_matter.date': `Send date ${meta.date}, the date this story was first published with; it never changes.`,
        });
      }
      const first = pick(firstRead, storyKey(slug));
      const baseRevision = input.base_revision ?? (first === undefined ? 0 : toStoryMeta(first).revision);
      return planNewRevision({ meta, story, caller, baseRevision, record: { kind: 'republish' }, at, feedMonths: months });
    },
  });
  return announceAfterCommit(ctx, withStoryUrl(ctx, outcome));
}

function targetSlug(explicit: string | undefined, story: ParsedStory): string {
  if (explicit === undefined) return slugFor(story.frontMatter.date, story.frontMatter.title);
  if (!isValidSlug(explicit)) {
    throw validationFailed('The slug is not a lorebook slug.', {
      slug: 'Pass the slug of one of your stories exactly as get_story or publish_story returned it, or leave slug out to publish a new story.',
    });
  }
  return explicit;
}

function planFirstPublish(
  slug: string,
  story: ParsedStory,
  caller: Caller,
  at: string,
  months: readonly string[],
): WritePlan<StoredContentOutcome> {
  const meta = newStoryMetaItem({ slug, author: caller.account, story, at });
  const listed = isListedPublicly(story.frontMatter.visibility, false);
  return {
    outcome: contentOutcome({
      slug,
      revision: 1,
      content_hash: story.contentHash,
      title: story.frontMatter.title,
      visibility: story.frontMatter.visibility,
      hidden: false,
    }),
    actions: [
      createItem(meta),
      createItem(bodyItem(slug, story, 1)),
      createItem(revisionItem(slug, 1, story, { kind: 'publish', at, by: caller.account })),
      ...(listed && !months.includes(feedMonth(at)) ? [addFeedMonth(feedMonth(at))] : []),
    ],
    guards: [],
  };
}

function slugTaken(slug: string): LorebookError {
  return new LorebookError(
    'slug_taken',
    `The slug "${slug}" belongs to another author's story. Change your title (the slug is made from the date and the title) and publish again.`,
    { details: { slug } },
  );
}
