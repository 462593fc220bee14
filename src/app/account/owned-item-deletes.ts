// A page of deletions of everything under the account's own partitions (design.md#account-deletion, the kinds in
// account/owned-items.ts): its inbox, op records, image days, rate windows, and the `ACCOUNT#`
// items with what each points to (a token's TOKEN# item, a grant's family, a web session, an
// image record, a draft it wrote). Unconditioned deletes: deleting what is already gone changes
// nothing, so a step planned twice is harmless.

import type { StoredItem, WriteAction } from '../../store/actions.ts';
import { draftKey } from '../../store/draft/draft-items.ts';
import { partitionPage } from '../../store/identity/account/deletion-queries.ts';
import { IMAGE_INDEX_PREFIX, ON_STORY_PREFIX, WEB_SESSION_INDEX_PREFIX } from '../../store/identity/account/index-items.ts';
import { grantKey, grantMemberKey, queryGrantMembers } from '../../store/identity/grant-items.ts';
import { refreshKey } from '../../store/identity/refresh-token-items.ts';
import { tokenKey } from '../../store/identity/token-items.ts';
import { webSessionKey } from '../../store/identity/web-session-items.ts';
import { imageDayKey, imageKey } from '../../store/image/items.ts';
import { accountKey, type ItemKey, inboxPartition } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { publishDayKey } from '../../store/story/publish-day-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { accountRateSubject } from '../context/rate-limit.ts';

const del = (key: ItemKey): WriteAction => ({ Delete: { Key: { PK: key.PK, SK: key.SK } } });

/** Partitions that hold only the account's items: every item goes as it is. */
function plainPartitions(account: string): string[] {
  return [
    inboxPartition(account),
    `OP#${account}`,
    imageDayKey(account, '').PK,
    publishDayKey(account, '').PK,
    `RATE#${accountRateSubject(account)}`,
  ];
}

export async function ownedItemDeletes(ctx: AppContext, account: string, limit: number): Promise<WriteAction[]> {
  for (const partition of plainPartitions(account)) {
    const items = await partitionPage(ctx.store, partition, undefined, limit);
    if (items.length > 0) return items.map(del);
  }
  const items = (await partitionPage(ctx.store, accountKey(account).PK, undefined, limit + 1)).filter(
    // META is the account item (the last step's); ONSTORY# are withdrawn first, by their own phase.
    (item) => item.SK !== 'META' && !item.SK.startsWith(ON_STORY_PREFIX),
  );
  const actions: WriteAction[] = [];
  for (const item of items) {
    const pointed = await pointedTo(ctx, account, item);
    // A grant's family can be long: it waits for a step of its own rather than overfill this one.
    if (actions.length > 0 && actions.length + pointed.length + 1 > limit) break;
    actions.push(...pointed, del(item));
  }
  return actions;
}

/** What an `ACCOUNT#` item points to and goes with it. */
async function pointedTo(ctx: AppContext, account: string, item: StoredItem): Promise<WriteAction[]> {
  const [kind, id] = [item.SK.slice(0, item.SK.indexOf('#') + 1), item.SK.slice(item.SK.indexOf('#') + 1)];
  if (kind === 'TOKEN#') return [del(tokenKey(id))];
  if (kind === WEB_SESSION_INDEX_PREFIX) return [del(webSessionKey(id))];
  if (kind === 'GRANT#') {
    const members = await queryGrantMembers(ctx.store, id);
    return [
      del(grantKey(id)),
      ...members.flatMap((member) => [
        del(grantMemberKey(id, member)),
        del(member.kind === 'TOKEN' ? tokenKey(member.hash) : refreshKey(member.hash)),
        ...(member.kind === 'TOKEN' ? [del({ PK: accountKey(account).PK, SK: `TOKEN#${member.hash}` })] : []),
      ]),
    ];
  }
  if (kind === IMAGE_INDEX_PREFIX) {
    const image = await readItem(ctx.store, imageKey(id));
    return image?.uploaded_by === account ? [del(imageKey(id))] : [];
  }
  // A draft the account wrote goes with it, unless it was claimed: then it is the claimer's story's draft.
  if (kind === 'DRAFT#' && item.role === 'drafter') {
    const draft = await readItem(ctx.store, draftKey(String(item.draft)));
    return draft !== undefined && draft.claimer === undefined ? [del(draftKey(String(item.draft)))] : [];
  }
  return [];
}
