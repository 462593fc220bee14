// Accounts (docs/design.md#data identity): the stable id keys everything; the handle is display data that
// can change and is resolved from the account whenever a story or notification is shown.

import { type Account, changeHandle, createAccount, toAccount } from '../../store/identity/account/items.ts';
import { accountKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { refuseGoneAccount } from '../caller/account-standing.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { type LoopPlan, writeLoop } from '../write/write-loop.ts';

/**
 * Creates the account on first sight and follows a handle change; safe to call on every
 * sign-in and any number of times in parallel. Losers of a race re-read and converge: the same
 * handle writes nothing, a different one is moved from the handle they read.
 */
export async function ensureAccount(ctx: AppContext, caller: Caller): Promise<Account> {
  return writeLoop<Account>(ctx, {
    // Sign-in is keyed by the account id itself, so it needs no op record.
    reads: [accountKey(caller.account)],
    plan(read, { now }): LoopPlan<Account> {
      const stored = pick(read, accountKey(caller.account));
      // A deleted account signs in as new only through a sign-in (bluesky-sign-in.ts); here it is gone.
      refuseGoneAccount(stored);
      if (stored === undefined) {
        const account: Account = { id: caller.account, handle: caller.handle, created_at: new Date(now).toISOString() };
        return { outcome: account, actions: [createAccount(account)] };
      }
      const account = toAccount(stored);
      if (account.handle === caller.handle) return { outcome: account, actions: [] };
      return {
        outcome: { ...account, handle: caller.handle },
        actions: [changeHandle(account.id, account.handle, caller.handle)],
      };
    },
  });
}

/**
 * The current handle of each account, in one BatchGetItem (per 100 ids). An account with no
 * item (created before accounts were recorded, or an admin-made id) shows its id.
 */
export async function handlesFor(ctx: AppContext, ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const handles = new Map(unique.map((id) => [id, id]));
  // No ids: readItems sends nothing.
  const items = await readItems(ctx.store, unique.map(accountKey));
  for (const id of unique) {
    const item = pick(items, accountKey(id));
    if (item !== undefined) handles.set(id, toAccount(item).handle);
  }
  return handles;
}
