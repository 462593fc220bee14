// unflag_story: withdraw your flag on a story (src/app/unflag-story.ts, docs/moderation.md).
import { signedIn } from '../../app/caller/signed-in.ts';
import { UNFLAG_STORY_TOOL, unflagStoryInputSchema, unflagStoryOutputSchema } from '../../app/unflag-story.contract.ts';
import { defineTool } from '../tool.ts';

export const unflagStoryTool = defineTool({
  name: UNFLAG_STORY_TOOL,
  title: 'Withdraw your flag on a story',
  description: [
    'Take back your flag on a story, for example it was a mistake or it is fixed now; it frees one of your open flags. Needs a token.',
    'The key is the story `slug` plus you. Withdrawing again, or when you never flagged it, answers the same and changes nothing. A story already held for review stays held: only an operator restores it.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it to change your reason (send flag_story again with the new one).',
  ].join('\n'),
  inputSchema: unflagStoryInputSchema,
  outputSchema: unflagStoryOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/unflag-story.ts')).unflagStory(ctx, signedIn(caller), args);
  },
});
