// set_visibility: hide or unhide your story (src/app/set-visibility.ts).
import { setVisibility, setVisibilityInputSchema } from '../../app/set-visibility.ts';
import { visibilityOutcomeSchema } from '../outputs.ts';
import { defineTool, describedObject, OP_ID_DESCRIPTION, signedIn } from '../tool.ts';

export const setVisibilityToolInputSchema = describedObject(setVisibilityInputSchema.shape, {
  slug: 'The key: the slug of one of your stories.',
  hidden: 'true hides the story from everyone but you (it leaves the feed and search); false shows it again.',
  op_id: OP_ID_DESCRIPTION,
});

export const setVisibilityTool = defineTool({
  name: 'set_visibility',
  title: 'Hide or unhide your story',
  description: [
    'Hide one of your stories from everyone but you, or show it again. Nothing is deleted: counts, reports and revisions are kept, and unhiding brings it back as it was. Only the author may do it. Needs a token.',
    '`slug` is the key; `hidden` is the state you want, so the same call twice changes nothing.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to make a public story private or back (edit the visibility field with edit_story), or without your user asking.',
  ].join('\n'),
  inputSchema: setVisibilityToolInputSchema,
  outputSchema: visibilityOutcomeSchema,
  // Hiding also withdraws the story's Bluesky announcement (design §4); unhiding restores it.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ ctx, search }, caller, args) {
    const outcome = await setVisibility(ctx, signedIn(caller), args);
    search.invalidate();
    return outcome;
  },
});
