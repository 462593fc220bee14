// draft_story_for's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/drafts use exactly these.
import { z } from 'zod';
import { DRAFT_KEY_SHAPE } from '../../domain/draft/claim-token.ts';
import { MAX_INVITEE_NOTE_CHARS } from '../../domain/draft/draft-rules.ts';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import { type DraftRecord, draftViewSchema } from './draft-view.ts';

export const DRAFT_STORY_FOR_TOOL = 'draft_story_for';

export const draftStoryForInputSchema = describedObject(
  {
    markdown: z.string(),
    invitee_note: z.string().max(MAX_INVITEE_NOTE_CHARS),
    invitee_handle: z.string().optional(),
    draft_key: z.string().regex(DRAFT_KEY_SHAPE, 'Use 16 to 128 characters from A-Z a-z 0-9 . _ : -, e.g. a UUID.'),
    op_id: z.string().optional(),
  },
  {
    markdown:
      'The whole story, written for the person you helped, in their voice: it must be a story publish_story would take (front matter, title, narrative, sections), at most 64 KiB.',
    invitee_note: `A note to them shown with the draft (at most ${MAX_INVITEE_NOTE_CHARS} characters): what you wrote and why.`,
    invitee_handle:
      'Optional: their Bluesky handle. Then only the account holding that handle when they claim may claim it; without it, whoever holds the claim URL may.',
    draft_key:
      'The key of this draft: a random id you make once for it (a UUID) and keep. Sent again with the same arguments, it answers the same draft and the same claim_url; sent with other arguments, it is refused. Use a new one for each draft.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type DraftStoryForInput = z.input<typeof draftStoryForInputSchema>;

export const draftStoryForOutputSchema = z.object({
  draft: draftViewSchema,
  claim_url: z
    .string()
    .describe(
      'The single-use link to give the person (privately: whoever holds it may claim the draft, or decline it). It is shown only in this answer: lorebook keeps only its hash.',
    ),
  replayed: replayedField,
});

export type DraftStoryForOutcome = Outcome<typeof draftStoryForOutputSchema>;

/**
 * What the op record and the draft_key item keep: the draft without its markdown and the salt its
 * claim token is derived with, never the token.
 */
export interface StoredDraftCreation {
  draft: DraftRecord;
  claim_salt: string;
}
