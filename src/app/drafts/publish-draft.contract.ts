// publish_draft's contract. MCP's tool and POST /v1/drafts/{id}/publish use it: publish_story's
// answer for the story the claimed draft became.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';
import { publishStoryOutputSchema } from '../publish-story.contract.ts';
import { draftIdSchema } from './draft-reference.ts';

export const PUBLISH_DRAFT_TOOL = 'publish_draft';

export const publishDraftInputSchema = describedObject(
  { draft_id: draftIdSchema, markdown: z.string().optional(), op_id: z.string().optional() },
  {
    draft_id: 'The key: the id of a draft you claimed (list_drafts lists them with role "claimer").',
    markdown:
      'Optional: the story as you edited it (the whole markdown, as publish_story takes it). Leave it out to publish the draft as it was written.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type PublishDraftInput = z.input<typeof publishDraftInputSchema>;

export const publishDraftOutputSchema = publishStoryOutputSchema.extend({
  draft_id: z.string().describe('The draft this story was published from; it is now "published".'),
});

export type PublishDraftOutcome = z.output<typeof publishDraftOutputSchema>;
