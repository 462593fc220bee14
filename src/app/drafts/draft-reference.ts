// How a call names a draft: the invitee by the claim URL (or its bare token) they were given,
// the drafter and the claimer by the draft id their answers carry.
import { z } from 'zod';
import { claimTokenIn, DRAFT_ID_SHAPE, draftIdFor } from '../../domain/draft/claim-token.ts';
import { LorebookError, validationFailed } from '../../domain/errors.ts';
import { describedObject, OP_ID_DESCRIPTION } from '../contract/described-object.ts';

export const claimReferenceSchema = describedObject(
  {
    claim_url: z.string().max(2048).optional(),
    token: z.string().max(128).optional(),
    op_id: z.string().optional(),
  },
  {
    claim_url: 'The claim URL exactly as you were given it (`<lorebook>/claim/lbc_…`). Send this or token.',
    token: 'Only the token part of the claim URL (`lbc_…`). Send this or claim_url.',
    op_id: OP_ID_DESCRIPTION,
  },
);

/** The draft id a claim URL or token stands for: the token's sha256. */
export function draftIdOfClaim(input: { claim_url?: string | undefined; token?: string | undefined }): string {
  if ((input.claim_url === undefined) === (input.token === undefined)) {
    throw validationFailed('Send exactly one of claim_url or token.', {
      claim_url: 'Pass the claim URL as you were given it, or only its token (lbc_…) as `token`.',
    });
  }
  const token = claimTokenIn(input.claim_url ?? input.token ?? '');
  if (token === undefined) {
    const field = input.claim_url === undefined ? 'token' : 'claim_url';
    throw validationFailed(`The ${field} is not a lorebook claim link.`, {
      [field]: 'A claim URL ends in /claim/lbc_ followed by 43 letters, digits, "-" or "_": copy it whole from the message you were sent.',
    });
  }
  return draftIdFor(token);
}

export const draftIdSchema = z
  .string()
  .regex(DRAFT_ID_SHAPE, 'A draft id is 64 hex characters, as list_drafts or draft_story_for answered it.');

/** A claim link that names no draft: never written, or gone (its drafts are removed 30 days after they expire). */
export function unknownClaimLink(): LorebookError {
  return new LorebookError(
    'not_found',
    'No draft has this claim link. Check that the link was copied whole; a draft that was never claimed is removed 30 days after its link expired.',
    { details: { reason: 'unknown_claim_link' } },
  );
}

/** A draft id that is not the caller's (as drafter or claimer) answers exactly like one that does not exist. */
export function unknownDraft(id: string): LorebookError {
  return new LorebookError('not_found', `No draft "${id}" is yours. list_drafts lists the drafts you wrote and the ones you claimed.`, {
    details: { draft_id: id },
  });
}
