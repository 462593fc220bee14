// Drift reports (design.md#drift). Two items under the story's partition:
//   STORY#slug / DRIFT#<sha256>#<account>  one account's report of one hash, replaced by key;
//   STORY#slug / DRIFTHASH#<sha256>        the hash's tally: the accounts counted for it at one
//                                          revision (a string set), and when the author was told.
// The count is the set's size, and a reporter joins only on `NOT contains` (primitive 2), so a
// redelivered report cannot count twice. A tally read at an older revision is restarted, not
// added to: corroboration is about the steps as they are now.
import type { Category } from '../../domain/capability/categories.ts';
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { Condition } from '../condition.ts';
import { driftReportKey, driftTallyKey } from '../keys.ts';
import { type ItemsByKey, pick } from '../read-items.ts';
import { createItem, replaceItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export interface DriftReport {
  slug: string;
  account: string;
  sha256: string;
  /** The distinct categories of the findings sent, in category order; absent when none were sent. */
  categories?: Category[] | undefined;
  /** The story revision the report was judged against (its `matches` and `counted`). */
  revision: number;
  matches: boolean;
  counted: boolean;
  at: string;
}

export function driftReportItem(report: DriftReport): StoredItem {
  const item: StoredItem = {
    ...driftReportKey(report.slug, report.sha256, report.account),
  };
  for (const [field, value] of Object.entries(report)) if (value !== undefined) item[field] = value;
  return item;
}

export function driftReportOf(read: ItemsByKey, slug: string, sha256: string, account: string): DriftReport | undefined {
  return pick(read, driftReportKey(slug, sha256, account)) as unknown as DriftReport | undefined;
}

/**
 * The report is exactly the one read (every write stamps a new `at`): a replace names it, so two
 * devices of one account replacing from one read cannot both decide from it.
 */
export function driftReportAsRead(read: DriftReport): Condition {
  return { expression: '#at = :at', names: { '#at': 'at' }, values: { ':at': read.at } };
}

export interface DriftTally {
  sha256: string;
  /** The revision whose reporters `reporters` holds. */
  revision: number;
  reporters: string[];
  /** When the author was told of this hash; absent until it is first corroborated. */
  notified_at?: string;
}

export function driftTallyOf(read: ItemsByKey, slug: string, sha256: string): DriftTally | undefined {
  const item = pick(read, driftTallyKey(slug, sha256));
  if (item === undefined) return undefined;
  const reporters = item.reporters instanceof Set ? [...(item.reporters as Set<string>)].sort() : [];
  const tally: DriftTally = { sha256: String(item.sha256), revision: Number(item.revision), reporters };
  if (typeof item.notified_at === 'string') tally.notified_at = item.notified_at;
  return tally;
}

function tallyItem(slug: string, tally: DriftTally): StoredItem {
  const item: StoredItem = {
    ...driftTallyKey(slug, tally.sha256),
    sha256: tally.sha256,
    revision: tally.revision,
    reporters: new Set(tally.reporters),
  };
  if (tally.notified_at !== undefined) item.notified_at = tally.notified_at;
  return item;
}

/** The hash's first counted reporter: the tally is created once (a second creation fails). */
export function startTally(slug: string, sha256: string, revision: number, reporter: string): PutAction {
  return createItem(tallyItem(slug, { sha256, revision, reporters: [reporter] }));
}

/**
 * The first counted reporter since the story's last content change, over a tally kept for an
 * older revision: its reporters are dropped, when the author was told is kept. Conditioned on the
 * revision read, so two readers restarting it at once cannot both be the first.
 */
export function restartTally(slug: string, stale: DriftTally, revision: number, reporter: string): PutAction {
  const fresh: DriftTally = { sha256: stale.sha256, revision, reporters: [reporter] };
  if (stale.notified_at !== undefined) fresh.notified_at = stale.notified_at;
  return replaceItem(tallyItem(slug, fresh), {
    expression: '#revision = :stale',
    names: { '#revision': 'revision' },
    values: { ':stale': stale.revision },
  });
}

export interface JoinTally {
  slug: string;
  sha256: string;
  revision: number;
  reporter: string;
  cap: number;
  /** Set when this join tells the author (the hash's first corroboration). */
  notifiedAt?: string;
}

/**
 * Adds the reporter to the current revision's tally. `NOT contains` is the guard against a second
 * count of one reporter (primitive 2); the revision guard keeps a report planned before an edit
 * out of the new revision's tally. A join that tells the author needs the hash still untold: of
 * two second reporters planned from one read, only one writes the notice.
 */
export function joinTally(join: JoinTally): UpdateAction {
  const names: Record<string, string> = { '#reporters': 'reporters', '#revision': 'revision' };
  const values: Record<string, unknown> = { ':reporter': join.reporter, ':revision': join.revision, ':cap': join.cap };
  const guards = ['NOT contains(#reporters, :reporter)', 'size(#reporters) < :cap', '#revision = :revision'];
  const set: Record<string, unknown> = {};
  if (join.notifiedAt !== undefined) {
    set.notified_at = join.notifiedAt;
    guards.push('attribute_not_exists(#notified)');
    names['#notified'] = 'notified_at';
  }
  return updateItem(
    driftTallyKey(join.slug, join.sha256),
    { set, addClauses: ['#reporters :member'], names, values: { ...values, ':member': new Set([join.reporter]) } },
    { expression: guards.join(' AND ') },
  );
}
