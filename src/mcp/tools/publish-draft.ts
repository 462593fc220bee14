// publish_draft: publish a draft you claimed as your story (src/app/drafts/publish-draft.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { PUBLISH_DRAFT_TOOL, publishDraftInputSchema, publishDraftOutputSchema } from '../../app/drafts/publish-draft.contract.ts';
import { defineTool } from '../tool.ts';

export const publishDraftTool = defineTool({
  name: PUBLISH_DRAFT_TOOL,
  title: 'Publish a draft you claimed',
  description: [
    'Publish a draft someone wrote for your user, after your user claimed it, as their own story: every publish_story rule holds, and the page credits the drafter ("drafted with help from @…"). Needs a token.',
    "The key is `draft_id`; send `markdown` with your user's edits, or leave it out to publish the draft as written. Publishing again answers the same story. Ask your user before publishing: a public story is listed and announced on Bluesky.",
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to change the story afterwards (use edit_story), or for a draft your user has not claimed.',
  ].join('\n'),
  inputSchema: publishDraftInputSchema,
  outputSchema: publishDraftOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ ctx, search }, caller, args) {
    // Loaded on first use, not at a cold start (test/unit/infra/lorebook-stack/bundled.test.ts bounds what the http function loads).
    const { publishDraft } = await import('../../app/drafts/publish-draft.ts');
    const outcome = await publishDraft(ctx, signedIn(caller), args, search);
    search.invalidate(outcome.slug);
    return outcome;
  },
});
