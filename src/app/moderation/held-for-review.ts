// The refusal an author gets for showing a story that is held for review (docs/moderation.md).
import { LorebookError } from '../../domain/errors.ts';
import { type HeldBy, heldBecause } from './held-by.ts';
import { APPEAL_TEXT } from './quarantine.ts';

export function heldForReview(slug: string, by: HeldBy): LorebookError {
  return new LorebookError('conflict', `"${slug}": ${heldBecause(by)} You cannot show it again yourself. ${APPEAL_TEXT}`, {
    retryable: false,
    details: { slug, moderation: 'quarantined' },
  });
}
