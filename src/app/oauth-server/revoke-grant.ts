// Revoking a grant family: first the grant is marked revoked (every mint is conditioned on that
// mark's absence, so no token can be minted from it afterwards), then every token it minted is
// deleted, then the grant itself. Each step is idempotent, so a second revoke — or a retry after a
// crash midway — finishes the sweep and changes nothing else.

import type { WriteAction } from '../../store/actions.ts';
import {
  deleteGrantItems,
  grantKey,
  grantMemberKey,
  markGrantRevoked,
  queryGrantMembers,
  toGrant,
} from '../../store/identity/grant-items.ts';
import { refreshKey } from '../../store/identity/refresh-token-items.ts';
import { accountTokenKey, tokenKey } from '../../store/identity/token-items.ts';
import { readItem } from '../../store/read-items.ts';
import { MAX_TRANSACTION_ACTIONS, writeAtomically } from '../../store/run-write.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** Whether a live grant was revoked by this call (false: it was gone already). */
export async function revokeGrantFamily(ctx: AppContext, grantId: string): Promise<boolean> {
  const item = await readItem(ctx.store, grantKey(grantId));
  // An expired grant is read as absent, but its lingering tokens are swept all the same.
  const grant = item === undefined ? undefined : toGrant(item);
  let revokedNow = false;
  if (grant !== undefined && grant.revoked_at === undefined) {
    try {
      await writeAtomically(ctx.store, [markGrantRevoked(grantId, new Date(ctx.store.now()).toISOString())]);
      revokedNow = true;
    } catch (error) {
      // Deleted by a concurrent revoke: the sweep below finds what is left.
      if (!(error instanceof WriteCancelled)) throw error;
    }
  }
  const members = await queryGrantMembers(ctx.store, grantId);
  const deletes: WriteAction[] = [];
  for (const member of members) {
    if (member.kind === 'TOKEN') {
      deletes.push({ Delete: { Key: tokenKey(member.hash) } }, { Delete: { Key: accountTokenKey(member.account, member.hash) } });
    } else {
      deletes.push({ Delete: { Key: refreshKey(member.hash) } });
    }
    deletes.push({ Delete: { Key: grantMemberKey(grantId, member) } });
  }
  try {
    for (let start = 0; start < deletes.length; start += MAX_TRANSACTION_ACTIONS) {
      await writeAtomically(ctx.store, deletes.slice(start, start + MAX_TRANSACTION_ACTIONS));
    }
  } finally {
    ctx.verifiedTokens?.forget(members.filter((member) => member.kind === 'TOKEN').map((member) => member.hash));
  }
  if (grant !== undefined) await writeAtomically(ctx.store, deleteGrantItems(grant));
  return revokedNow;
}
