// What an account item says about the account (design.md#account-deletion, design.md#bans), read from its fields, and the
// deletion event as the steps read it back (src/store/identity/account/deletion-items.ts).
import { describe, expect, it } from 'vitest';
import { accountStanding, toDeletionEvent } from '../../../../src/store/identity/account/deletion-items.ts';

const KEY = { PK: 'ACCOUNT#acct-a', SK: 'META' };
const AT = '2026-12-01T10:00:00.000Z';
const LATER = '2026-12-02T10:00:00.000Z';

describe('accountStanding', () => {
  it('no item is no account; a live one carries its handle and creation, and a reset time only when made over a tombstone', () => {
    expect(accountStanding(undefined)).toEqual({ kind: 'none' });
    expect(accountStanding({ ...KEY, handle: 'a.test', created_at: AT })).toEqual({ kind: 'live', handle: 'a.test', createdAt: AT });
    expect(accountStanding({ ...KEY, handle: 'a.test', created_at: LATER, reset_at: AT })).toEqual({
      kind: 'live',
      handle: 'a.test',
      createdAt: LATER,
      resetAt: AT,
    });
  });

  it('a deletion accepted reads as deleting from its request time; the tombstone reads as deleted even with the mark still on it', () => {
    expect(accountStanding({ ...KEY, handle: 'a.test', created_at: AT, deleting_since: LATER })).toEqual({
      kind: 'deleting',
      handle: 'a.test',
      since: LATER,
    });
    expect(accountStanding({ ...KEY, id: 'acct-a', deleted_at: LATER })).toEqual({ kind: 'deleted', deletedAt: LATER });
    expect(accountStanding({ ...KEY, deleting_since: AT, deleted_at: LATER })).toEqual({ kind: 'deleted', deletedAt: LATER });
  });

  it('a ban reads as banned with its reason and time; a deletion under way outranks it', () => {
    const banned = { reason: 'spam', since: AT, actor: 'operator', op_id: 'op-1' };
    expect(accountStanding({ ...KEY, handle: 'a.test', created_at: AT, banned })).toEqual({
      kind: 'banned',
      handle: 'a.test',
      reason: 'spam',
      since: AT,
    });
    expect(accountStanding({ ...KEY, handle: 'a.test', created_at: AT, banned, deleting_since: LATER })).toMatchObject({
      kind: 'deleting',
    });
  });
});

describe('toDeletionEvent', () => {
  it('a fresh event counts zero steps and zero items and has no phase; a stepped one carries its counts and last phase', () => {
    expect(toDeletionEvent({ PK: 'OUTBOX', SK: 'account-deletion#acct-a', account: 'acct-a', since: AT })).toEqual({
      account: 'acct-a',
      since: AT,
      steps: 0,
      deleted: 0,
    });
    expect(
      toDeletionEvent({ PK: 'OUTBOX', SK: 'account-deletion#acct-a', account: 'acct-a', since: AT, steps: 4, deleted: 61, phase: 'owned' }),
    ).toEqual({ account: 'acct-a', since: AT, steps: 4, deleted: 61, phase: 'owned' });
  });
});
