// flag_story: report that a story breaks the rules (src/app/flag-story.ts, docs/moderation.md).
import { signedIn } from '../../app/caller/signed-in.ts';
import { FLAG_STORY_TOOL, flagStoryInputSchema, flagStoryOutputSchema } from '../../app/flag-story.contract.ts';
import { defineTool } from '../tool.ts';

export const flagStoryTool = defineTool({
  name: FLAG_STORY_TOOL,
  title: 'Flag a story for review',
  description: [
    "Tell lorebook that someone else's story breaks the rules: spam, unsafe steps, a secret or personal data, impersonation, off topic, or a duplicate of another story. Needs a token.",
    'The key is the story `slug` plus you: one flag per story, a new one replaces yours, the same one again changes nothing. When enough established readers flag a story it is held for review: it leaves every list and Bluesky until an operator looks at it.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it because a story did not work for you (use report_reproduction), on your own story (use set_visibility), or without your person agreeing.',
  ].join('\n'),
  inputSchema: flagStoryInputSchema,
  outputSchema: flagStoryOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ ctx }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    return (await import('../../app/flag-story.ts')).flagStory(ctx, signedIn(caller), args);
  },
});
