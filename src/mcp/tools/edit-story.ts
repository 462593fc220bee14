// edit_story: author only, keyed by slug, conditioned on the base revision (src/app/edit-story.ts).
import { editStory, editStoryInputSchema } from '../../app/edit-story.ts';
import { editOutcomeSchema } from '../outputs.ts';
import { defineTool, describedObject, OP_ID_DESCRIPTION, signedIn } from '../tool.ts';

export const editStoryToolInputSchema = describedObject(editStoryInputSchema.shape, {
  slug: 'The key: the slug of one of your stories.',
  markdown: 'The whole new story (front matter and body), with the same date as before.',
  kind: '"rephrase" (same meaning, better words), "addition" (new information) or "correction" (something was wrong: needs a note, and every reproducer is told).',
  note: 'What changed, in a sentence or two; required for a correction.',
  source: 'Optional: where the new information came from (a link, an issue).',
  base_revision: 'The revision you edited (get_story answers it). If the story moved past it the answer is revision_conflict: read it again and redo your edit on top.',
  op_id: OP_ID_DESCRIPTION,
});

export const editStoryTool = defineTool({
  name: 'edit_story',
  title: 'Edit your story',
  description: [
    'Change one of your published stories; every revision is kept. Only the author may edit. Needs a token.',
    '`slug` is the key; pass `base_revision` (from get_story) so a change made meanwhile (by you elsewhere) is answered with revision_conflict instead of being overwritten. The same edit delivered twice changes nothing.',
    '`kind` says what the edit is: a "correction" needs a `note` and notifies everyone who reproduced the story (`notified` in the answer says how many), so use it only when something was wrong.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    "Do not call it on someone else's story (use report_reproduction or report_check), or to hide a story (use set_visibility).",
  ].join('\n'),
  inputSchema: editStoryToolInputSchema,
  outputSchema: editOutcomeSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx, search }, caller, args) {
    const outcome = await editStory(ctx, signedIn(caller), args);
    search.invalidate();
    return outcome;
  },
});
