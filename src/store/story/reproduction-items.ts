// The reproduction item: one per (story, account) at STORY#slug / REPRO#account. Replaced by key
// when the account changes its report; `counted` is decided at the first report (the author's
// own is never counted) and kept from then on.
import type { AgentFields, EnvFields } from '../../domain/report-metadata.ts';
import type { StoredItem } from '../actions.ts';
import { reproductionKey, storyKey } from '../keys.ts';
import type { CounterTarget } from '../list-conditioned-counter.ts';
import { type ItemsByKey, pick } from '../read-items.ts';
import type { Counts } from './story-items.ts';

export const REPRODUCTION_RESULTS = ['worked', 'partial', 'failed'] as const;
export type ReproductionResult = (typeof REPRODUCTION_RESULTS)[number];

/** What identifies a report: a second report with the same identity changes nothing. */
export interface ReproductionIdentity {
  result: ReproductionResult;
  note?: string | undefined;
  agent?: string | undefined;
  env?: string | undefined;
}

/** Measurements ride along with a report but are not part of its identity. */
export interface ReproductionMeasurements {
  duration_min?: number | undefined;
  tokens?: number | undefined;
}

/** The structured agent and env, when the report sent objects: for aggregates only, never shown per person. */
export interface ReproductionMetadata {
  agent_fields?: AgentFields | undefined;
  env_fields?: EnvFields | undefined;
}

export interface Reproduction extends ReproductionIdentity, ReproductionMeasurements, ReproductionMetadata {
  slug: string;
  account: string;
  counted: boolean;
  /** The reporter was a new account at its first report: counted apart, in `new_counts` (design.md#new-accounts). Kept by every replace. */
  new_account?: boolean | undefined;
  at: string;
}

export function reproductionItem(report: Reproduction): StoredItem {
  const item: StoredItem = {
    ...reproductionKey(report.slug, report.account),
  };
  for (const [field, value] of Object.entries(report)) if (value !== undefined) item[field] = value;
  return item;
}

export function toReproduction(item: StoredItem): Reproduction {
  return item as unknown as Reproduction;
}

/** The account's report on the story in a snapshot, if it has one. */
export function reproductionOf(read: ItemsByKey, slug: string, account: string): Reproduction | undefined {
  const item = pick(read, reproductionKey(slug, account));
  return item === undefined ? undefined : toReproduction(item);
}

/** Same result, note, agent and env: duration_min and tokens do not make a report new. */
export function sameReproduction(a: ReproductionIdentity, b: ReproductionIdentity): boolean {
  return a.result === b.result && a.note === b.note && a.agent === b.agent && a.env === b.env;
}

/**
 * The story's reproducer list and the result counts this account's report moves: `counts`, or
 * `new_counts` for a report a new account made (design.md#new-accounts). Every counted reporter is in the one
 * list, so the reproducer cap holds for both.
 */
export function reproducerCounter(slug: string, report: Pick<Reproduction, 'account' | 'new_account'>): CounterTarget {
  return {
    key: storyKey(slug),
    list: 'reproducers',
    counts: report.new_account === true ? 'new_counts' : 'counts',
    member: report.account,
  };
}

/** A first counted report: its counter, creating `new_counts` when the story has none yet. */
export function firstReportCounter(meta: { slug: string; new_counts?: unknown }, report: Reproduction): CounterTarget {
  const target = reproducerCounter(meta.slug, report);
  if (report.new_account !== true || meta.new_counts !== undefined) return target;
  return { ...target, initial: { worked: 0, partial: 0, failed: 0, [report.result]: 1 } };
}

/** The reproduction counts readers see: established accounts' in `counts`, new accounts' apart. */
export function newAccountCounts(meta: { new_counts?: Partial<ReproductionCounts> | undefined }): ReproductionCounts {
  return { worked: 0, partial: 0, failed: 0, ...meta.new_counts };
}

/** Counted reproducers who were established accounts when they reported. */
export function establishedReproducers(meta: {
  reproducers: readonly string[];
  new_counts?: Partial<ReproductionCounts> | undefined;
}): number {
  const fresh = newAccountCounts(meta);
  return meta.reproducers.length - fresh.worked - fresh.partial - fresh.failed;
}

export type ReproductionCounts = Pick<Counts, 'worked' | 'partial' | 'failed'>;

/** The story's counts a reproduction answer shows (checks are counted beside them). */
export function reproductionCounts(counts: Counts): ReproductionCounts {
  return { worked: counts.worked, partial: counts.partial, failed: counts.failed };
}
