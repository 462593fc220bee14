// publish_draft — the claimer publishes the draft as theirs (docs/design.md#drafts), through
// publish_story's own path so every publish rule holds: the claimer is the author, META gets
// `drafted_by` (the drafter's account), and the draft goes claimed → published in the publish's
// transaction, conditioned on `claimed`. Publishing again answers the same story (the content
// write converges); a draft already published as another story, or a slug already the caller's,
// is a typed conflict.
import { LorebookError } from '../../domain/errors.ts';
import { type Draft, draftKey, publishDraftAction, toDraft } from '../../store/draft/draft-items.ts';
import { type ItemsByKey, pick, readItem } from '../../store/read-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type PublishSource, publishStory } from '../publish-story.ts';
import type { SimilarFinder } from '../search/similar-stories.ts';
import type { Replayed } from '../write/write-once.ts';
import { unknownDraft } from './draft-reference.ts';
import { PUBLISH_DRAFT_TOOL, type PublishDraftOutcome, publishDraftInputSchema } from './publish-draft.contract.ts';

export async function publishDraft(
  ctx: AppContext,
  caller: Caller,
  raw: unknown,
  related?: SimilarFinder,
): Promise<Replayed<PublishDraftOutcome>> {
  const input = await parseWriteInput(publishDraftInputSchema, raw, PUBLISH_DRAFT_TOOL, ctx);
  // Read first only for the markdown to publish when none is sent; every rule is judged again in the plan.
  const item = await readItem(ctx.store, draftKey(input.draft_id));
  const found = item === undefined ? undefined : toDraft(item);
  if (found === undefined || found.claimer !== caller.account) throw unknownDraft(input.draft_id);
  const markdown = input.markdown ?? found.markdown;
  const outcome = await publishStory(
    ctx,
    caller,
    { markdown, ...(input.op_id === undefined ? {} : { op_id: input.op_id }) },
    related,
    draftSource(input.draft_id, caller),
  );
  return { ...outcome, draft_id: input.draft_id };
}

function draftSource(id: string, caller: Caller): PublishSource {
  const key = draftKey(id);
  const claimedDraft = (read: ItemsByKey): Draft => {
    const item = pick(read, key);
    const draft = item === undefined ? undefined : toDraft(item);
    if (draft === undefined || draft.claimer !== caller.account) throw unknownDraft(id);
    return draft;
  };
  return {
    tool: PUBLISH_DRAFT_TOOL,
    fingerprint: { draft: id },
    reads: [key],
    firstPublish(read, slug, at) {
      const draft = claimedDraft(read);
      // A draft with a claimer is claimed or, once published, published.
      if (draft.status !== 'claimed') throw publishedAs(draft);
      return { meta: { drafted_by: draft.drafter }, actions: [publishDraftAction(draft, slug, at)] };
    },
    existing(read, meta: StoryMeta, contentHash) {
      const draft = claimedDraft(read);
      // The one case a publish from a draft meets its story: a repeat of the publish that made it.
      if (draft.status === 'published' && draft.story === meta.slug && meta.content_hash === contentHash) return;
      if (draft.status === 'published') throw publishedAs(draft);
      throw new LorebookError(
        'conflict',
        `You already have a story "${meta.slug}" (the slug is made from the date and the title). Change the draft's title or date in markdown and publish again; a draft becomes a new story.`,
        { retryable: false, details: { slug: meta.slug } },
      );
    },
  };
}

function publishedAs(draft: Draft): LorebookError {
  return new LorebookError(
    'conflict',
    `This draft is already published as "${draft.story ?? ''}". To change that story, call edit_story on it.`,
    { retryable: false, details: { status: 'published', slug: draft.story } },
  );
}
