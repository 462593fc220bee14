// An operator's deletion of an account (`npm run account -- delete`, design.md#account-deletion): the same request
// and steps as DELETE /v1/account, on the account a handle or id names, run to the end here: when
// only the last step is left before the grace is over, it waits out the grace (deletion-step.ts).
import { LorebookError } from '../../domain/errors.ts';
import { accountStanding } from '../../store/identity/account/deletion-items.ts';
import { handleKey, toHandleClaim } from '../../store/identity/handle-items.ts';
import { accountKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { deleteAccount } from './delete-account.ts';
import type { StepResult } from './deletion-step.ts';
import { deleteAccountSteps } from './run-account-deletions.ts';

const MAX_WAITS = 2;

export interface OperatorDeletion {
  account: string;
  handle: string;
  since: string;
  steps: number;
  finished: boolean;
}

/** A DID or a local id (`acct_…`) is taken as it is; anything else is a handle, looked up. */
export async function resolveAccount(ctx: AppContext, handleOrId: string): Promise<{ account: string; handle: string }> {
  const byId = handleOrId.startsWith('did:') || handleOrId.startsWith('acct_');
  const account = byId ? handleOrId : await accountOfHandle(ctx, handleOrId);
  const standing = accountStanding(await readItem(ctx.store, accountKey(account)));
  if (standing.kind === 'none' || standing.kind === 'deleted') {
    throw new LorebookError('not_found', `There is no live account ${handleOrId} here.`, { retryable: false });
  }
  return { account, handle: standing.handle };
}

async function accountOfHandle(ctx: AppContext, handle: string): Promise<string> {
  const claim = await readItem(ctx.store, handleKey(handle));
  if (claim === undefined) throw new LorebookError('not_found', `No account holds the handle ${handle}.`, { retryable: false });
  return toHandleClaim(claim).account;
}

export async function deleteAccountAsOperator(
  ctx: AppContext,
  handleOrId: string,
  onStep: (result: StepResult) => void,
): Promise<OperatorDeletion> {
  const { account, handle } = await resolveAccount(ctx, handleOrId);
  const accepted = await deleteAccount(ctx, { account, handle }, { confirm: handle });
  let steps = 0;
  // One wait is enough (past the grace no step waits); the bound only guards against a clock that jumps back.
  for (let round = 0; round < MAX_WAITS + 1; round += 1) {
    const run = await deleteAccountSteps(ctx, account, Number.MAX_SAFE_INTEGER, onStep);
    steps += run.steps;
    if (run.waitingUntil === undefined) return { account, handle, since: accepted.since, steps, finished: run.finished };
    if (round < MAX_WAITS) await ctx.sleep(Math.max(0, run.waitingUntil - ctx.store.now()));
  }
  return { account, handle, since: accepted.since, steps, finished: false };
}
