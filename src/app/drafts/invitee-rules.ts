// Who may act on a draft as its invitee (claim it, decline it), and the refusals of a draft that
// is no longer open. The invitee handle is judged at the moment of the claim against the
// caller's current handle (design.md#data: a handle re-taken by another person resolves to its new
// holder, so the new holder may claim and the person who let the handle go may not).
import type { DraftStatus } from '../../domain/draft/draft-rules.ts';
import { forbidden, LorebookError } from '../../domain/errors.ts';
import type { Draft } from '../../store/draft/draft-items.ts';
import type { Caller } from '../context/app-context.ts';

export function mayActAsInvitee(draft: Draft, caller: Caller, action: 'claim' | 'decline'): void {
  if (draft.drafter === caller.account) {
    throw forbidden(
      `You wrote this draft, so you cannot ${action} it: the person you wrote it for does, with the claim URL. To take it back, call withdraw_draft.`,
      {
        reason: 'drafter',
      },
    );
  }
  if (draft.invitee_handle !== undefined && draft.invitee_handle !== caller.handle.toLowerCase()) {
    throw forbidden(
      `This draft is for @${draft.invitee_handle}; you are signed in as @${caller.handle}. Only the account holding that handle may ${action} it: sign in as @${draft.invitee_handle}.`,
      { reason: 'wrong_handle', invitee_handle: draft.invitee_handle },
    );
  }
}

const WHY: Record<Exclude<DraftStatus, 'open'>, string> = {
  claimed: 'it was already claimed by someone else',
  published: 'it was already published',
  declined: 'it was declined',
  withdrawn: 'its drafter withdrew it',
  expired: 'its claim link expired (a draft can be claimed for 30 days)',
};

/** A refused change of a draft that is past `open`: no retry changes that. */
export function draftNotOpen(status: Exclude<DraftStatus, 'open'>, action: string): LorebookError {
  return new LorebookError('conflict', `This draft cannot be ${action}: ${WHY[status]}. Nothing was changed.`, {
    retryable: false,
    details: { status },
  });
}
