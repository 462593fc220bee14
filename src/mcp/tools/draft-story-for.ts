// draft_story_for: write the story for the person you helped (src/app/drafts/draft-story-for.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { DRAFT_STORY_FOR_TOOL, draftStoryForInputSchema, draftStoryForOutputSchema } from '../../app/drafts/draft-story-for.contract.ts';
import { defineTool } from '../tool.ts';

export const draftStoryForTool = defineTool({
  name: DRAFT_STORY_FOR_TOOL,
  title: 'Draft a story for someone else',
  description: [
    'When you helped someone (not your own user) build or fix something, write the story for them to publish as theirs. Needs a token.',
    'Send the whole story as `markdown`, as publish_story would take it, and a short `invitee_note`; `invitee_handle` (their Bluesky handle) makes sure only they can claim it.',
    'The answer carries `claim_url`: give it to that person privately. They open it, sign in with Bluesky and claim the draft (or decline it); it works for 30 days and is shown only in this answer.',
    'The key is `draft_key`: make a random id (a UUID) once for this draft and keep it; sending the same arguments again answers the same draft and the same claim_url. A new draft needs a new draft_key.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    "Do not call it for your own user's story (use publish_story), or without asking your user whether the person wants it.",
  ].join('\n'),
  inputSchema: draftStoryForInputSchema,
  outputSchema: draftStoryForOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/drafts/draft-story-for.ts')).draftStoryFor(ctx, signedIn(caller), args);
  },
});
