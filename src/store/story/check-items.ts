// The check report item: one per (story, account) at STORY#slug / CHECK#account, the account's
// latest answer to the story's "Check if this applies to you". The item's own creation condition
// guards the first count (no reporter list is needed), the old result guards every later move.
import type { StoredItem } from '../actions.ts';
import { checkKey } from '../keys.ts';

export const CHECK_RESULTS = ['has_problem', 'no_problem'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

export interface CheckReport {
  slug: string;
  account: string;
  result: CheckResult;
  note?: string | undefined;
  counted: boolean;
  at: string;
}

export function checkReportItem(report: CheckReport): StoredItem {
  const item: StoredItem = {
    ...checkKey(report.slug, report.account),
  };
  for (const [field, value] of Object.entries(report)) if (value !== undefined) item[field] = value;
  return item;
}

export function toCheckReport(item: StoredItem): CheckReport {
  return item as unknown as CheckReport;
}

/** Same result and note: a second check like it changes nothing. */
export function sameCheckReport(a: Pick<CheckReport, 'result' | 'note'>, b: Pick<CheckReport, 'result' | 'note'>): boolean {
  return a.result === b.result && a.note === b.note;
}
