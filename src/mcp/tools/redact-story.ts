// redact_story: take a leaked secret out of your story and out of every earlier revision (src/app/redact-story.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { REDACT_TOOL, redactStoryInputSchema, redactStoryOutputSchema } from '../../app/redact-story.contract.ts';
import { defineTool } from '../tool.ts';

export const redactStoryTool = defineTool({
  name: REDACT_TOOL,
  title: 'Redact your story (remove a leaked secret from every revision)',
  description: [
    'Replace the text of one of your stories with a redacted one and remove the stored markdown of EVERY earlier revision (their kind, time and note stay, marked redacted). Use it when a story leaked a secret, a key or private data: an edit_story alone keeps the old text in the revision history. Only the author may do it. Needs a token.',
    '`slug` is the key; `base_revision` is the revision you redacted (get_story answers it): a story that moved past it answers revision_conflict. `markdown` is the whole story without the secret, the same date; the same text as now keeps it and only removes the earlier revisions.',
    'Images only the removed text named, that you uploaded, are deleted. The search index, the .md page and the standard.site document show the new text within the usual lag. Rotate the leaked secret anyway: copies made before the redaction (readers, feeds, caches) cannot be called back.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for ordinary changes (use edit_story), or without your user asking: what it removes cannot be restored.',
  ].join('\n'),
  inputSchema: redactStoryInputSchema,
  outputSchema: redactStoryOutputSchema,
  // Destructive: the earlier revisions' markdown is gone for good. Idempotent: the same call again changes nothing.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ ctx, search }, caller, args) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const outcome = await (await import('../../app/redact-story.ts')).redactStory(ctx, signedIn(caller), args);
    search.invalidate(outcome.slug);
    return outcome;
  },
});
