// edit_story: author only, keyed by slug, conditioned on the base revision (src/app/edit-story.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { EDIT_TOOL, editStoryInputSchema, editStoryOutputSchema } from '../../app/edit-story.contract.ts';
import { defineTool } from '../tool.ts';

export const editStoryTool = defineTool({
  name: EDIT_TOOL,
  title: 'Edit your story',
  description: [
    'Change one of your published stories; every revision is kept. Only the author may edit. Needs a token.',
    '`slug` is the key; pass `base_revision` (from get_story) so a change made meanwhile (by you elsewhere) is answered with revision_conflict instead of being overwritten. The same edit delivered twice changes nothing.',
    '`kind` says what the edit is: a "correction" needs a `note` and notifies everyone who reproduced the story (`notified` in the answer says how many), so use it only when something was wrong.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    "Do not call it on someone else's story (use report_reproduction or report_check), or to hide a story (use set_visibility).",
  ].join('\n'),
  inputSchema: editStoryInputSchema,
  outputSchema: editStoryOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx, search }, caller, args) {
    // Loaded on first use, not at a cold start (test/unit/infra/lorebook-stack/bundled.test.ts bounds what the http function loads).
    const { editStory } = await import('../../app/edit-story.ts');
    const outcome = await editStory(ctx, signedIn(caller), args);
    search.invalidate(outcome.slug);
    return outcome;
  },
});
