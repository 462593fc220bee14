// The refusal an author gets for showing a story that is held for review (docs/moderation.md).
import { LorebookError } from '../../domain/errors.ts';
import { APPEAL_TEXT } from './quarantine.ts';

export function heldForReview(slug: string): LorebookError {
  return new LorebookError(
    'conflict',
    `"${slug}" is held for review after readers flagged it, so you cannot show it again yourself. ${APPEAL_TEXT}`,
    {
      retryable: false,
      details: { slug, moderation: 'quarantined' },
    },
  );
}
