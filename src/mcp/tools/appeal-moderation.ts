// appeal_moderation: ask an operator to review the hold of your story (src/app/appeal-moderation.ts, docs/moderation.md).
import { APPEAL_MODERATION_TOOL, appealModerationInputSchema, appealModerationOutputSchema } from '../../app/appeal-moderation.contract.ts';
import { signedIn } from '../../app/caller/signed-in.ts';
import { defineTool } from '../tool.ts';

export const appealModerationTool = defineTool({
  name: APPEAL_MODERATION_TOOL,
  title: 'Appeal the hold of your story',
  description: [
    "Ask the instance's operator to review your story that is held for review (get_story shows `moderation.state: quarantined`), with a short note. Needs a token.",
    'The key is the story `slug` and the hold: one appeal per hold. The same note again answers your appeal and changes nothing; another note for the same hold is refused (`conflict`). The operator sees it in their queue and restores the story or not; you get a notification either way only when they act.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for a story that is not held, or without your person agreeing to the note.',
  ].join('\n'),
  inputSchema: appealModerationInputSchema,
  outputSchema: appealModerationOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/appeal-moderation.ts')).appealModeration(ctx, signedIn(caller), args);
  },
});
