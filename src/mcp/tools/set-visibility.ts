// set_visibility: hide or unhide your story (src/app/set-visibility.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { SET_VISIBILITY_TOOL, setVisibilityInputSchema, setVisibilityOutputSchema } from '../../app/set-visibility.contract.ts';
import { setVisibility } from '../../app/set-visibility.ts';
import { defineTool } from '../tool.ts';

export const setVisibilityTool = defineTool({
  name: SET_VISIBILITY_TOOL,
  title: 'Hide or unhide your story',
  description: [
    'Hide one of your stories from everyone but you, or show it again. Nothing is deleted: counts, reports and revisions are kept, and unhiding brings it back as it was. Only the author may do it. Needs a token.',
    '`slug` is the key; `hidden` is the state you want, so the same call twice changes nothing.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to make a public story private or back (edit the visibility field with edit_story), or without your user asking.',
  ].join('\n'),
  inputSchema: setVisibilityInputSchema,
  outputSchema: setVisibilityOutputSchema,
  // Hiding also withdraws the story's Bluesky announcement (docs/design.md#write-rules); unhiding restores it.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ ctx, search }, caller, args) {
    const outcome = await setVisibility(ctx, signedIn(caller), args);
    search.invalidate(outcome.slug);
    return outcome;
  },
});
