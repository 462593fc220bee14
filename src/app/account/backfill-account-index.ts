// `npm run account -- backfill-index` (design.md#account-deletion): gives every report, web session and image
// record written before the account index items existed the index item deletion and export find
// it by. A Scan, one bounded page at a time; each page's index items are read first and only the
// missing ones written. Safe to run twice or in two processes at once: an index item is replaced
// by key with the same content, and its write is checked against what it points to.
import type { StoredItem } from '../../store/actions.ts';
import { actionKey } from '../../store/actions.ts';
import { indexBackfillScanPage, type MissingIndex, missingIndexFor, type ScanKey } from '../../store/identity/account/index-backfill.ts';
import { keyId } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** Items a Scan page reads (before its filter): bounds each page's time and memory. */
export const BACKFILL_PAGE_ITEMS = 500;
/** Index items written at once. */
const WRITES_IN_FLIGHT = 8;
/** Tries of one index item's write that met only competing transactions. */
const MAX_TRIES = 4;

export interface IndexBackfill {
  pages: number;
  /** Reports, web sessions and image records the Scan found. */
  found: number;
  already_indexed: number;
  written: number;
  /** What the item pointed to went meanwhile (a withdrawn report, an ended session) or its account was deleted: nothing written. */
  gone: number;
}

export async function backfillAccountIndex(
  ctx: AppContext,
  onPage: (progress: IndexBackfill) => void = () => undefined,
  pageItems = BACKFILL_PAGE_ITEMS,
): Promise<IndexBackfill> {
  const counts: IndexBackfill = { pages: 0, found: 0, already_indexed: 0, written: 0, gone: 0 };
  let startKey: ScanKey | undefined;
  do {
    const page = await indexBackfillScanPage(ctx.store, pageItems, startKey);
    await backfillPage(ctx, page.items, counts);
    counts.pages += 1;
    onPage({ ...counts });
    startKey = page.next;
  } while (startKey !== undefined);
  return counts;
}

async function backfillPage(ctx: AppContext, items: readonly StoredItem[], counts: IndexBackfill): Promise<void> {
  const needed = items.flatMap((item) => missingIndexFor(item) ?? []);
  counts.found += needed.length;
  const present = await readItems(
    ctx.store,
    needed.map((missing) => actionKey(missing.index)),
  );
  const missing = needed.filter((each) => pick(present, actionKey(each.index)) === undefined);
  counts.already_indexed += needed.length - missing.length;
  // Items sharing an index item (a reproduction and a check of one story) are one group: the first
  // still there writes it and the rest find it written; no write conflicts with our own.
  const groups = new Map<string, MissingIndex[]>();
  for (const each of missing) {
    const id = keyId(actionKey(each.index));
    groups.set(id, [...(groups.get(id) ?? []), each]);
  }
  const list = [...groups.values()];
  for (let next = 0; next < list.length; next += WRITES_IN_FLIGHT) {
    await Promise.all(list.slice(next, next + WRITES_IN_FLIGHT).map((group) => writeGroup(ctx, group, counts)));
  }
}

async function writeGroup(ctx: AppContext, group: readonly MissingIndex[], counts: IndexBackfill): Promise<void> {
  for (const [index, each] of group.entries()) {
    if (await writeIndex(ctx, each)) {
      counts.written += 1;
      counts.already_indexed += group.length - index - 1;
      return;
    }
    counts.gone += 1;
  }
}

/** Writes one index item with its checks; false when a check said what it points to is gone. */
async function writeIndex(ctx: AppContext, missing: MissingIndex): Promise<boolean> {
  for (let tries = 1; ; tries += 1) {
    try {
      await writeAtomically(ctx.store, [...missing.checks, missing.index]);
      return true;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      if (!error.onlyTransactionConflicts) return false;
      if (tries >= MAX_TRIES) throw error;
      await ctx.sleep(ctx.config.conflictBackoffMs * 2 ** tries * (0.5 + ctx.random()));
    }
  }
}
