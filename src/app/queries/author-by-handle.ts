// Whose page /a/{handle} is. Handles are display data that can change hands (docs/design.md#data), so a
// handle is resolved to the account that holds it *now*: the handle item (written when an admin
// creates a local account) names an account, and that account's current handle must still be
// this one. An account id (a DID, or an account without a handle item) is accepted as well.
import { notFound } from '../../domain/errors.ts';
import { toAccount } from '../../store/identity/account/items.ts';
import { handleKey, toHandleClaim } from '../../store/identity/handle-items.ts';
import { accountKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import type { AppContext } from '../context/app-context.ts';
import type { AuthorView } from '../contract/story-shapes.ts';

const MAX_HANDLE_CHARS = 512;

export async function authorByHandle(ctx: AppContext, handle: string): Promise<AuthorView> {
  const name = handle.replace(/^@/, '');
  if (name === '' || name.length > MAX_HANDLE_CHARS) throw notFound(handle);
  const items = await readItems(ctx.store, [handleKey(name), accountKey(name)]);
  const claim = pick(items, handleKey(name));
  if (claim !== undefined) {
    const account = toHandleClaim(claim).account;
    const current = pick(await readItems(ctx.store, [accountKey(account)]), accountKey(account));
    // An account without an item shows its id as its handle (handlesFor), so the claim stands.
    if (current === undefined || toAccount(current).handle === name) return { account, handle: name };
  }
  const byId = pick(items, accountKey(name));
  if (byId !== undefined) return { account: name, handle: toAccount(byId).handle };
  throw notFound(handle);
}
