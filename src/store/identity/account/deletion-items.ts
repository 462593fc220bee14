// Account deletion's items (design.md#account-deletion). The account item carries the deletion's state:
//   deleting_since  set by the request, with the outbox event, in one transaction
//   deleted_at      the tombstone the last step leaves: `{id, deleted_at}`, no handle
//   reset_at        a new account made over a tombstone (the same DID signing in again) keeps
//                   when the old one was deleted: a credential created before it is the old one's
// The outbox event `OUTBOX / account-deletion#<account>` drives the bounded steps; each step bumps
// its `steps` in the step's own transaction (progress, and the stream record that runs the next).
import type { CheckAction, PutAction, StoredItem, UpdateAction, WriteAction } from '../../actions.ts';
import type { Condition } from '../../condition.ts';
import { accountKey, type ItemKey, outboxKey } from '../../keys.ts';
import { checkItem, createItem, replaceItem } from '../../replace-by-key.ts';
import { updateItem } from '../../update-item.ts';
import { banOf } from '../ban-items.ts';

export const ACCOUNT_DELETION_EVENT_PREFIX = 'account-deletion#';
export const accountDeletionEventKey = (account: string): ItemKey => outboxKey(`${ACCOUNT_DELETION_EVENT_PREFIX}${account}`);

/** What an account item says about the account's standing; derived from fields, never a stored status. */
export type AccountStanding =
  | { kind: 'none' }
  | { kind: 'live'; handle: string; createdAt: string; resetAt?: string }
  | { kind: 'deleting'; handle: string; since: string }
  /** Suspended by an operator (design.md#bans): it acts no more until an unban finishes. */
  | { kind: 'banned'; handle: string; reason: string; since: string }
  | { kind: 'deleted'; deletedAt: string };

export function accountStanding(item: StoredItem | undefined): AccountStanding {
  if (item === undefined) return { kind: 'none' };
  if (typeof item.deleted_at === 'string') return { kind: 'deleted', deletedAt: item.deleted_at };
  if (typeof item.deleting_since === 'string') return { kind: 'deleting', handle: String(item.handle), since: item.deleting_since };
  const ban = banOf(item);
  if (ban !== undefined) return { kind: 'banned', handle: String(item.handle), reason: ban.reason, since: ban.since };
  return {
    kind: 'live',
    handle: String(item.handle),
    createdAt: String(item.created_at),
    ...(typeof item.reset_at === 'string' ? { resetAt: item.reset_at } : {}),
  };
}

/** Neither deleting, deleted nor banned (a missing item passes: accounts made before account items). */
export const accountNotGone: Condition = {
  expression: 'attribute_not_exists(#deleting) AND attribute_not_exists(#deleted) AND attribute_not_exists(#banned)',
  names: { '#deleting': 'deleting_since', '#deleted': 'deleted_at', '#banned': 'banned' },
};

/** The guard a credential's minting commits with: a deletion accepted since the read cancels it. */
export function accountStillHere(account: string): CheckAction {
  return checkItem(accountKey(account), accountNotGone);
}

export interface DeletionRequest {
  account: string;
  handle: string;
  at: string;
}

/**
 * Marks the account. Conditioned on the handle the caller confirmed and on no deletion yet: of
 * two requests, one marks; the other re-reads and answers the same. Committed with deletionEvent.
 */
export function markAccountDeleting(request: DeletionRequest): UpdateAction {
  return updateItem(
    accountKey(request.account),
    { set: { deleting_since: request.at } },
    {
      expression: '#handle = :handle AND attribute_not_exists(#deleting) AND attribute_not_exists(#deleted)',
      names: { '#handle': 'handle', '#deleting': 'deleting_since', '#deleted': 'deleted_at' },
      values: { ':handle': request.handle },
    },
  );
}

/** The outbox event that drives the steps, created once. */
export function deletionEvent(request: DeletionRequest): PutAction {
  return createItem({
    ...accountDeletionEventKey(request.account),
    kind: 'account-deletion',
    account: request.account,
    since: request.at,
    steps: 0,
    deleted: 0,
  });
}

/** A step's progress on the event, conditioned on the step count read: two workers on one step, one commits. */
export function advanceDeletion(account: string, stepsRead: number, deleted: number, phase: string): UpdateAction {
  return updateItem(
    accountDeletionEventKey(account),
    {
      set: { steps: stepsRead + 1, phase },
      setClauses: ['#deleted = #deleted + :n'],
      names: { '#deleted': 'deleted' },
      values: { ':n': deleted },
    },
    { expression: '#steps = :steps', names: { '#steps': 'steps' }, values: { ':steps': stepsRead } },
  );
}

export interface DeletionEvent {
  account: string;
  since: string;
  steps: number;
  deleted: number;
  phase?: string;
}

export function toDeletionEvent(item: StoredItem): DeletionEvent {
  return {
    account: String(item.account),
    since: String(item.since),
    steps: Number(item.steps ?? 0),
    deleted: Number(item.deleted ?? 0),
    ...(typeof item.phase === 'string' ? { phase: item.phase } : {}),
  };
}

/** The last step: the account item becomes `{id, deleted_at}` and the event is retired, together. */
export function finishDeletion(account: string, stepsRead: number, at: string): WriteAction[] {
  return [
    replaceItem(
      { ...accountKey(account), id: account, deleted_at: at },
      { expression: 'attribute_exists(#deleting)', names: { '#deleting': 'deleting_since' } },
    ),
    {
      Delete: {
        Key: accountDeletionEventKey(account),
        ConditionExpression: '#steps = :steps',
        ExpressionAttributeNames: { '#steps': 'steps' },
        ExpressionAttributeValues: { ':steps': stepsRead },
      },
    },
  ];
}

/** A new account over a tombstone: the same id, a fresh start; credentials from before `reset_at` stay refused. */
export function accountOverTombstone(account: { id: string; handle: string; created_at: string }, deletedAt: string): PutAction {
  return replaceItem(
    { ...accountKey(account.id), ...account, reset_at: deletedAt },
    { expression: '#deleted = :deleted', names: { '#deleted': 'deleted_at' }, values: { ':deleted': deletedAt } },
  );
}

/**
 * A credential created at `createdAt` may mint another for the account: the account is not being
 * deleted, not deleted, and not made again since the credential was created (design.md#account-deletion).
 */
export function accountAcceptsCredential(account: string, createdAt: string): CheckAction {
  return checkItem(accountKey(account), {
    expression: `${accountNotGone.expression} AND (attribute_not_exists(#reset) OR #reset < :created)`,
    names: { ...accountNotGone.names, '#reset': 'reset_at' },
    values: { ':created': createdAt },
  });
}
