// delete_account's contract: DELETE /v1/account and the account page's button. Deliberately no MCP
// tool (design.md#account-deletion): an agent acts for its person and must not be able to end their account.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';
import { type Outcome, replayedField } from '../contract/replayed.ts';

export const DELETE_ACCOUNT = 'delete_account';

export const deleteAccountInputSchema = describedObject(
  {
    confirm: z.string(),
    op_id: z.string().optional(),
  },
  {
    confirm: 'Your current handle, typed again: the account is deleted only when it matches.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type DeleteAccountInput = z.input<typeof deleteAccountInputSchema>;

export const deleteAccountOutputSchema = z.object({
  status: z
    .literal('deleting')
    .describe(
      'The deletion is accepted and runs in bounded steps in the background: from now on every token, session and refresh token of the account is refused.',
    ),
  since: z.string().describe('When the deletion was accepted (ISO 8601).'),
  replayed: replayedField,
});

export type DeletionAccepted = Outcome<typeof deleteAccountOutputSchema>;
