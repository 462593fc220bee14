// A draft as every draft answer shows it (docs/design.md#drafts): its status as of the answer
// (`expired` judged against the store clock), who wrote it and who claimed it with their current
// handles, the note and the story it became. The markdown only where a caller asks for one draft.
import { z } from 'zod';
import { DRAFT_STATUSES } from '../../domain/draft/draft-rules.ts';
import { revealForbiddenChars } from '../../domain/text-controls.ts';
import { type Draft, statusNow } from '../../store/draft/draft-items.ts';
import { handlesFor } from '../account/accounts.ts';
import type { AppContext } from '../context/app-context.ts';
import { authorSchema } from '../contract/story-shapes.ts';
import { storyUrl } from '../story-content/content-write.ts';

export const draftViewSchema = z.object({
  id: z.string().describe('The draft id (a key): pass it as draft_id to withdraw_draft, publish_draft or list_drafts.'),
  status: z
    .enum(DRAFT_STATUSES)
    .describe(
      '"open" (the claim URL works), "claimed" (the invitee has it; they publish it with publish_draft), "published", "declined" (by the invitee), "withdrawn" (by the drafter), "expired" (open past claim_until).',
    ),
  title: z.string(),
  drafter: authorSchema.describe('Who wrote the draft; credited on the story page as "drafted with help from".'),
  claimer: authorSchema.optional().describe('Who claimed it, once claimed.'),
  invitee_handle: z.string().optional().describe('Only this handle may claim it; absent: whoever holds the claim URL.'),
  invitee_note: z.string().optional(),
  created_at: z.string(),
  claim_until: z.string().describe('The claim URL works until then (30 days after the draft was written).'),
  claimed_at: z.string().optional(),
  story: z.string().optional().describe('The slug of the story it became, once published.'),
  story_url: z.string().optional(),
  markdown: z.string().optional().describe('The story as drafted: only when list_drafts is asked for this one draft.'),
});

export type DraftView = z.output<typeof draftViewSchema>;

/** A draft without its markdown: what op records keep of it (an answer never needs 64 KiB twice). */
export type DraftRecord = Omit<Draft, 'markdown'>;

export function draftRecord(draft: Draft): DraftRecord {
  const { markdown: _markdown, ...record } = draft;
  return record;
}

/** The views of many drafts, their people's handles resolved in one BatchGetItem. */
export async function presentDrafts(
  ctx: AppContext,
  drafts: readonly DraftRecord[],
  options: { withMarkdown?: boolean } = {},
): Promise<DraftView[]> {
  const handles = await handlesFor(
    ctx,
    drafts.flatMap((draft) => (draft.claimer === undefined ? [draft.drafter] : [draft.drafter, draft.claimer])),
  );
  const now = ctx.store.now();
  return drafts.map((draft) => {
    const view: DraftView = {
      id: draft.id,
      status: statusNow(draft, now),
      title: revealForbiddenChars(draft.title),
      drafter: { account: draft.drafter, handle: handles.get(draft.drafter) ?? draft.drafter },
      created_at: draft.created_at,
      claim_until: new Date(draft.claim_until * 1000).toISOString(),
    };
    if (draft.claimer !== undefined) view.claimer = { account: draft.claimer, handle: handles.get(draft.claimer) ?? draft.claimer };
    if (draft.invitee_handle !== undefined) view.invitee_handle = draft.invitee_handle;
    if (draft.invitee_note !== undefined) view.invitee_note = revealForbiddenChars(draft.invitee_note);
    if (draft.claimed_at !== undefined) view.claimed_at = draft.claimed_at;
    if (draft.story !== undefined) {
      view.story = draft.story;
      view.story_url = storyUrl(ctx, draft.story);
    }
    if (options.withMarkdown === true && 'markdown' in draft && typeof draft.markdown === 'string')
      view.markdown = revealForbiddenChars(draft.markdown);
    return view;
  });
}

export async function presentDraft(ctx: AppContext, draft: DraftRecord): Promise<DraftView> {
  const [view] = await presentDrafts(ctx, [draft]);
  return view as DraftView;
}
