// One bounded step of an account's deletion (design.md#account-deletion). A step reads what is left (no cursor: a
// deleted item is simply not found again), plans at most STEP_ITEMS deletions of one phase, and
// commits them in ONE transaction together with the event's step count (conditioned on the count
// read). So a crash loses at most the step in flight, which the next run plans again from what is
// there; two workers on one account cannot both commit a step; and every committed step moves
// the event, whose stream record starts the next step in the cloud.
// Phases, in order: the account's stories (tombstoned, then emptied), its reports on other
// stories (withdrawn with their counts, as the withdraw paths do), every item under its own
// partitions, the items keyed by its DID or handle, and last the account item with the event.
// The last step waits for the grace (LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS after the request):
// writes are not conditioned on the account (write/write-once.ts), so a write that read the account
// before the mark may commit after it, within one write attempt; every step re-reads every phase,
// so what such a write left is found, and after the grace no such write can still commit.
import type { StoredItem, WriteAction } from '../../store/actions.ts';
import { itemExists } from '../../store/condition.ts';
import { accountDeletionEventKey, advanceDeletion, finishDeletion, toDeletionEvent } from '../../store/identity/account/deletion-items.ts';
import { authorStoryPage, partitionPage } from '../../store/identity/account/deletion-queries.ts';
import { ON_STORY_PREFIX, toReportOnStory } from '../../store/identity/account/index-items.ts';
import { blueskySessionKey } from '../../store/identity/bluesky-session-items.ts';
import { handleKey } from '../../store/identity/handle-items.ts';
import { accountKey, answerKey, storyKey } from '../../store/keys.ts';
import { pick, readItem, readItems } from '../../store/read-items.ts';
import { deleteItemIf } from '../../store/replace-by-key.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { INDEXES } from '../../store/schema.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { forgetStoryAuthor, isTombstone, tombstoneStory } from '../../store/story/story-tombstone.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';
import { ownedItemDeletes } from './owned-item-deletes.ts';
import { withdrawReportsOn } from './withdraw-reports.ts';

/** Deletions one step commits at most (the transaction also holds the event's update). */
export const STEP_ITEMS = 50;

export type StepResult =
  | { kind: 'none' }
  /** `tombstoned`: the story this step took down, whose Bluesky post the announcer now deletes. */
  | { kind: 'step'; phase: string; deleted: number; tombstoned?: string }
  | { kind: 'finished' }
  /** Nothing left, but writes that read the account before the mark may still commit until `until`: run again then. */
  | { kind: 'waiting'; until: number }
  /** Another worker committed this step first (or what was read changed): run again. */
  | { kind: 'raced' };

interface Planned {
  phase: string;
  actions: WriteAction[];
  /** Items this step removes or withdraws, for the event's progress count. */
  deleted: number;
  tombstoned?: string;
}

export async function runDeletionStep(ctx: AppContext, account: string): Promise<StepResult> {
  const eventItem = await readItem(ctx.store, accountDeletionEventKey(account));
  if (eventItem === undefined) return { kind: 'none' };
  const event = toDeletionEvent(eventItem);
  // Taken before the phases are read: a read after the grace sees every write that read the account before the mark.
  const startedAt = ctx.store.now();
  const planned = await planStep(ctx, account);
  try {
    if (planned === undefined) {
      const until = Date.parse(event.since) + ctx.config.accountDeletionGraceSeconds * 1000;
      if (startedAt < until) return { kind: 'waiting', until };
      await writeAtomically(ctx.store, finishDeletion(account, event.steps, new Date(ctx.store.now()).toISOString()));
      return { kind: 'finished' };
    }
    await writeAtomically(ctx.store, [...planned.actions, advanceDeletion(account, event.steps, planned.deleted, planned.phase)]);
    return {
      kind: 'step',
      phase: planned.phase,
      deleted: planned.deleted,
      ...(planned.tombstoned === undefined ? {} : { tombstoned: planned.tombstoned }),
    };
  } catch (error) {
    if (error instanceof WriteCancelled) return { kind: 'raced' };
    throw error;
  }
}

async function planStep(ctx: AppContext, account: string): Promise<Planned | undefined> {
  return (
    (await planStories(ctx, account)) ??
    (await planReports(ctx, account)) ??
    (await planOwnedItems(ctx, account)) ??
    (await planKeyedItems(ctx, account))
  );
}

/**
 * The first story of the account with work left: tombstone it, then empty its partition, then drop its author.
 * @NOTE the author index is eventually consistent: a story published within the grace is indexed
 * well before the grace ends (typically within a second), so the last step's read lists it.
 */
async function planStories(ctx: AppContext, account: string): Promise<Planned | undefined> {
  for (const slug of await authorStoryPage(ctx.store, account, STEP_ITEMS)) {
    const item = await readItem(ctx.store, storyKey(slug));
    if (item === undefined || item.author !== account || item[INDEXES.author.partition] === undefined) continue;
    const meta = toStoryMeta(item);
    if (!isTombstone(item)) {
      const at = new Date(ctx.store.now()).toISOString();
      // The answer links its success story made on fail stories' partitions go with it (≤ 5).
      const answers = (meta.answers ?? []).map((fail) => ({ Delete: { Key: answerKey(fail, slug) } }) as WriteAction);
      return { phase: 'stories', actions: [tombstoneStory(meta, account, at), ...answers], deleted: 1 + answers.length, tombstoned: slug };
    }
    const children = (await partitionPage(ctx.store, storyKey(slug).PK, undefined, STEP_ITEMS + 1)).filter((child) => child.SK !== 'META');
    if (children.length > 0) {
      const batch = children.slice(0, STEP_ITEMS);
      return {
        phase: 'stories',
        actions: batch.map((child) => ({ Delete: { Key: { PK: child.PK, SK: child.SK } } })),
        deleted: batch.length,
      };
    }
    return { phase: 'stories', actions: [forgetStoryAuthor(slug, account)], deleted: 0 };
  }
  return undefined;
}

/** The account's reports on other people's stories, one story per step, each count taken back once. */
async function planReports(ctx: AppContext, account: string): Promise<Planned | undefined> {
  const page = await partitionPage(ctx.store, accountKey(account).PK, ON_STORY_PREFIX, 1);
  const first = page[0];
  if (first === undefined) return undefined;
  const report = toReportOnStory(first);
  const actions = await withdrawReportsOn(ctx, account, report);
  return { phase: 'reports', actions: [...actions, deleteItemIf({ PK: first.PK, SK: first.SK }, itemExists)], deleted: actions.length + 1 };
}

/** A page of everything under the account's own partitions, with what each item points to. */
async function planOwnedItems(ctx: AppContext, account: string): Promise<Planned | undefined> {
  const actions = await ownedItemDeletes(ctx, account, STEP_ITEMS);
  return actions.length === 0 ? undefined : { phase: 'owned', actions, deleted: actions.length };
}

/** The items keyed by the DID or the handle: the Bluesky session and the handle item, if it still points here. */
async function planKeyedItems(ctx: AppContext, account: string): Promise<Planned | undefined> {
  const accountItem = await readItem(ctx.store, accountKey(account));
  const handle = typeof accountItem?.handle === 'string' ? accountItem.handle : undefined;
  const keys = [blueskySessionKey(account), ...(handle === undefined ? [] : [handleKey(handle)])];
  const read = await readItems(ctx.store, keys);
  const actions: WriteAction[] = [];
  if (pick(read, blueskySessionKey(account)) !== undefined) actions.push({ Delete: { Key: blueskySessionKey(account) } });
  const claim: StoredItem | undefined = handle === undefined ? undefined : pick(read, handleKey(handle));
  if (handle !== undefined && claim?.account === account) {
    actions.push(
      deleteItemIf(handleKey(handle), { expression: '#account = :me', names: { '#account': 'account' }, values: { ':me': account } }),
    );
  }
  return actions.length === 0 ? undefined : { phase: 'keyed', actions, deleted: actions.length };
}
