// A person signed in with Bluesky (docs/design.md#data identity): their DID is the account id, their handle
// is display data that follows handle changes. Every sign-in records the handle they have now:
//   - the account is created on first sight, or its handle moved from the one that was read;
//   - the handle item HANDLE#<handle> (what a handle resolves to) points at this DID; if another
//     account held the handle, that account's handle becomes its DID until its owner signs in
//     again (its handle is not known here, and two accounts must never show one handle);
//   - the person's previous handle item is dropped if it still points at them.
// Keyed by DID and handle, conditioned on what was read: a replayed or concurrent sign-in
// converges to the same items and writes nothing the second time.

import { LorebookError } from '../../domain/errors.ts';
import type { WriteAction } from '../../store/actions.ts';
import { accountOverTombstone, accountStanding } from '../../store/identity/account/deletion-items.ts';
import { type Account, changeHandle, createAccount, toAccount } from '../../store/identity/account/items.ts';
import { handleKey, toHandleClaim } from '../../store/identity/handle-items.ts';
import { accountKey, type ItemKey } from '../../store/keys.ts';
import { type ItemsByKey, pick, readItems } from '../../store/read-items.ts';
import { createItem, deleteItemIf, replaceItem } from '../../store/replace-by-key.ts';
import { accountSuspended } from '../caller/account-standing.ts';
import type { AppContext } from '../context/app-context.ts';
import { writeLoop } from '../write/write-loop.ts';

export interface BlueskyIdentity {
  did: string;
  handle: string;
}

export interface SignedInAccount {
  account: Account;
  /** true when this sign-in created the account. */
  created: boolean;
}

/** Thrown inside a plan when the snapshot names items the pre-read did not: read again. */
class ReadMoved extends Error {}

export async function recordBlueskySignIn(ctx: AppContext, identity: BlueskyIdentity): Promise<SignedInAccount> {
  const { did, handle } = identity;
  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    // Which other items this sign-in may touch depends on what is stored: look first, then
    // plan from one snapshot of all of them (a snapshot that disagrees starts over).
    const keys = await involvedKeys(ctx, identity);
    try {
      return await writeLoop<SignedInAccount>(ctx, {
        // Keyed by the DID and handle themselves: no op record needed.
        reads: keys,
        plan(read, { now }) {
          const actions: WriteAction[] = [];
          const at = new Date(now).toISOString();
          const storedAccount = pick(read, accountKey(did));
          const standing = accountStanding(storedAccount);
          // Its deletion is under way: no new session for it until it is done (design.md#account-deletion).
          if (standing.kind === 'deleting') throw deletionUnderWay();
          // A banned DID gets no session, and no new account either (design.md#bans).
          if (standing.kind === 'banned') throw accountSuspended(standing.reason, standing.since);
          const before = storedAccount === undefined || standing.kind === 'deleted' ? undefined : toAccount(storedAccount);
          // After a deletion the same DID starts a new, empty account over the tombstone.
          if (standing.kind === 'deleted') actions.push(accountOverTombstone({ id: did, handle, created_at: at }, standing.deletedAt));
          else if (before === undefined) actions.push(createAccount({ id: did, handle, created_at: at }));
          else if (before.handle !== handle) actions.push(changeHandle(did, before.handle, handle));
          actions.push(...claimHandleActions(read, keys, did, handle, at));
          if (before !== undefined && before.handle !== handle) {
            if (!keys.some((key) => key.PK === handleKey(before.handle).PK)) throw new ReadMoved();
            const old = pick(read, handleKey(before.handle));
            if (old !== undefined && toHandleClaim(old).account === did) {
              actions.push(
                deleteItemIf(handleKey(before.handle), {
                  expression: '#account = :me',
                  names: { '#account': 'account' },
                  values: { ':me': did },
                }),
              );
            }
          }
          const account: Account = before === undefined ? { id: did, handle, created_at: at } : { ...before, handle };
          return { outcome: { account, created: before === undefined }, actions };
        },
      });
    } catch (error) {
      if (!(error instanceof ReadMoved)) throw error;
    }
  }
  throw new LorebookError('conflict', 'Other sign-ins with this handle kept landing at the same moment. Sign in again.', {
    retryAfterMs: ctx.config.conflictBackoffMs,
  });
}

function deletionUnderWay(): LorebookError {
  return new LorebookError(
    'conflict',
    'This account is being deleted. Once that is done (usually within a minute), signing in starts a new, empty account.',
    {
      retryAfterMs: 30_000,
    },
  );
}

/** The handle item points at this DID; a previous holder's account gives the handle up. */
function claimHandleActions(read: ItemsByKey, keys: readonly ItemKey[], did: string, handle: string, at: string): WriteAction[] {
  const claimed = pick(read, handleKey(handle));
  if (claimed === undefined) return [createItem({ ...handleKey(handle), handle, account: did, created_at: at })];
  const holder = toHandleClaim(claimed).account;
  if (holder === did) return [];
  if (!keys.some((key) => key.PK === accountKey(holder).PK)) throw new ReadMoved();
  const byHolder = { expression: '#account = :holder', names: { '#account': 'account' }, values: { ':holder': holder } };
  const actions: WriteAction[] = [replaceItem({ ...handleKey(handle), handle, account: did, created_at: at }, byHolder)];
  const holderAccount = pick(read, accountKey(holder));
  if (holderAccount !== undefined && toAccount(holderAccount).handle === handle) actions.push(changeHandle(holder, handle, holder));
  return actions;
}

async function involvedKeys(ctx: AppContext, { did, handle }: BlueskyIdentity): Promise<ItemKey[]> {
  const first = await readItems(ctx.store, [accountKey(did), handleKey(handle)]);
  const keys: ItemKey[] = [accountKey(did), handleKey(handle)];
  const stored = pick(first, accountKey(did));
  if (stored !== undefined && toAccount(stored).handle !== handle) keys.push(handleKey(toAccount(stored).handle));
  const claimed = pick(first, handleKey(handle));
  if (claimed !== undefined && toHandleClaim(claimed).account !== did) keys.push(accountKey(toHandleClaim(claimed).account));
  return keys;
}
