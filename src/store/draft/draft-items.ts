// Draft items (docs/design.md#drafts): the draft itself, `DRAFT#<sha256 of the claim token>` / META,
// and one list item per person it concerns, `ACCOUNT#<id>` / `DRAFT#<created_at>#<draft id>`
// (the drafter's at creation, the claimer's at claim), newest first under the account. Every
// status change is an update conditioned on the status it read.
import type { DraftStatus, StoredDraftStatus } from '../../domain/draft/draft-rules.ts';
import { draftStatusAt } from '../../domain/draft/draft-rules.ts';
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { epochSeconds } from '../store.ts';
import { updateItem } from '../update-item.ts';

export const draftKey = (id: string): ItemKey => ({ PK: `DRAFT#${id}`, SK: 'META' });
export const draftListPrefix = 'DRAFT#';
export const draftListKey = (account: string, createdAt: string, id: string): ItemKey => ({
  PK: `ACCOUNT#${account}`,
  SK: `${draftListPrefix}${createdAt}#${id}`,
});

/** The drafter's draft_key (by its sha256): which draft a repeat of the same key answers, and the salt of its token. */
export const draftKeyItemKey = (account: string, keyHash: string): ItemKey => ({ PK: `ACCOUNT#${account}`, SK: `DRAFTKEY#${keyHash}` });

export interface DraftKeyRecord {
  /** The fingerprint of the arguments the key was first sent with. */
  fingerprint: string;
  claim_salt: string;
  /** The first answer's draft (without its markdown). */
  draft: Record<string, unknown>;
}

export function draftKeyItem(account: string, keyHash: string, record: DraftKeyRecord, expiresAt: number): PutAction {
  return createItem({ ...draftKeyItemKey(account, keyHash), ...record, expires_at: expiresAt });
}

export type DraftRole = 'drafter' | 'claimer';

export interface Draft {
  id: string;
  drafter: string;
  /** The drafter's handle when they wrote it: the claimer's notification names them (views resolve the current one). */
  drafter_handle: string;
  title: string;
  /** The story as the drafter wrote it, normalised like a publish (one text). */
  markdown: string;
  content_hash: string;
  invitee_note?: string;
  /** Only this handle's account may claim (lower case, no `@`); absent: whoever holds the URL. */
  invitee_handle?: string;
  status: StoredDraftStatus;
  created_at: string;
  /** Epoch seconds: the claim URL works until then. */
  claim_until: number;
  claimer?: string;
  claimed_at?: string;
  /** When it was declined, withdrawn or published. */
  closed_at?: string;
  /** The story it became. */
  story?: string;
}

export function toDraft(item: StoredItem): Draft {
  const { PK: _pk, SK: _sk, expires_at: _ttl, ...fields } = item;
  return fields as unknown as Draft;
}

export const statusNow = (draft: Pick<Draft, 'status' | 'claim_until'>, nowMs: number): DraftStatus =>
  draftStatusAt(draft.status, draft.claim_until, epochSeconds(nowMs));

/** The draft and the drafter's list item, created once; both carry the open draft's TTL. */
export function newDraftItems(draft: Draft, expiresAt: number): PutAction[] {
  return [
    createItem({ ...draftKey(draft.id), ...draft, expires_at: expiresAt }),
    createItem({ ...draftListKey(draft.drafter, draft.created_at, draft.id), draft: draft.id, role: 'drafter', expires_at: expiresAt }),
  ];
}

const statusIs = (status: StoredDraftStatus) => ({
  expression: '#status = :read',
  names: { '#status': 'status' },
  values: { ':read': status },
});

/**
 * open → claimed, by `claimer`, before the deadline; the TTL goes (a claimed draft is the
 * claimer's to keep) from the draft and the drafter's list item, and the claimer's list item is
 * created. Conditioned on `open`, so of two claims or a claim and a withdrawal exactly one lands.
 */
export function claimDraftActions(draft: Draft, claimer: string, at: string): (UpdateAction | PutAction)[] {
  return [
    updateItem(draftKey(draft.id), { set: { status: 'claimed', claimer, claimed_at: at }, remove: ['expires_at'] }, statusIs('open')),
    updateItem(draftListKey(draft.drafter, draft.created_at, draft.id), { remove: ['expires_at'] }),
    createItem({ ...draftListKey(claimer, draft.created_at, draft.id), draft: draft.id, role: 'claimer' }),
  ];
}

/** open → declined or withdrawn: closed, left to expire with the open draft's TTL. */
export function closeDraftAction(draft: Draft, status: 'declined' | 'withdrawn', at: string): UpdateAction {
  return updateItem(draftKey(draft.id), { set: { status, closed_at: at } }, statusIs('open'));
}

/** claimed → published as `story`, in the publish's own transaction. */
export function publishDraftAction(draft: Draft, story: string, at: string): UpdateAction {
  return updateItem(draftKey(draft.id), { set: { status: 'published', story, closed_at: at } }, statusIs('claimed'));
}
