// The account's reports on one story, withdrawn the way their own withdraw paths do it
// (design.md#use-cases, design.md#aggregates, design.md#drift), so each count moves back exactly
// once: a reproduction's delete names the result it read and takes its count back with primitive 2
// (`contains(reproducers)`); a check's delete
// names its result and `counted` and shifts the count with it; a drift report leaves its hash's
// tally (`contains(reporters)`), and a "changed since publish" flag that rested on it drops when
// fewer than two reporters are left; a reader's flag is deleted as read and, counted, leaves
// META's `flaggers` with its count (a hold it helped make stays: only an operator restores). Any of
// these changed since the read cancels the step, which the next run plans again.
import type { WriteAction } from '../../store/actions.ts';
import type { ReportOnStory } from '../../store/identity/account/index-items.ts';
import { checkKey, driftReportKey, driftTallyKey, reproductionKey, storyKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { deleteItemIf } from '../../store/replace-by-key.ts';
import { toCheckReport } from '../../store/story/check-items.ts';
import { driftReportAsRead, driftReportOf, driftTallyOf } from '../../store/story/drift-items.ts';
import { flagAsRead, flagKey, toStoryFlag } from '../../store/story/flag-items.ts';
import { stillReported } from '../../store/story/report-items.ts';
import { reproducerCounter, reproductionOf } from '../../store/story/reproduction-items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { isTombstone } from '../../store/story/story-tombstone.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext } from '../context/app-context.ts';

export async function withdrawReportsOn(ctx: AppContext, account: string, report: ReportOnStory): Promise<WriteAction[]> {
  const { slug, sha256 } = report;
  const keys = [storyKey(slug), reproductionKey(slug, account), checkKey(slug, account), flagKey(slug, account)];
  if (sha256 !== undefined) keys.push(driftReportKey(slug, sha256, account), driftTallyKey(slug, sha256));
  const read = await readItems(ctx.store, keys);
  const metaItem = pick(read, storyKey(slug));
  // A story gone or tombstoned took its reports with it.
  if (metaItem === undefined || isTombstone(metaItem)) return [];
  const meta = toStoryMeta(metaItem);
  const actions: WriteAction[] = [];
  // META's changes, gathered into one update (a transaction holds one action per item).
  const change = new MetaChange();

  const reproduction = reproductionOf(read, slug, account);
  if (reproduction !== undefined) {
    actions.push(deleteItemIf(reproductionKey(slug, account), stillReported(reproduction)));
    // uncountMember's rule: the member leaves the set and its count goes back, only while it is in the set.
    if (reproduction.counted) change.uncount(account, reproduction.result, reproducerCounter(slug, reproduction).counts);
  }

  const checkItem = pick(read, checkKey(slug, account));
  const check = checkItem === undefined ? undefined : toCheckReport(checkItem);
  if (check !== undefined) {
    // The CHECK item's delete names its result and `counted`: the count moves with it, once.
    actions.push(deleteItemIf(checkKey(slug, account), stillReported(check)));
    if (check.counted) change.shift(check.result, -1);
  }

  const flagItem = pick(read, flagKey(slug, account));
  if (flagItem !== undefined) {
    actions.push(deleteItemIf(flagKey(slug, account), flagAsRead(toStoryFlag(flagItem))));
    if (meta.flaggers?.[account] !== undefined) change.unflag(account);
  }

  if (sha256 !== undefined) {
    const drift = driftReportOf(read, slug, sha256, account);
    if (drift !== undefined) actions.push(deleteItemIf(driftReportKey(slug, sha256, account), driftReportAsRead(drift)));
    const tally = driftTallyOf(read, slug, sha256);
    if (tally?.reporters.includes(account) === true) {
      actions.push(
        updateItem(
          driftTallyKey(slug, sha256),
          { deleteClauses: ['#reporters :me'], names: { '#reporters': 'reporters' }, values: { ':me': new Set([account]) } },
          // The size read: a reporter joining or leaving meanwhile re-plans the flag decision below.
          {
            expression: 'contains(#reporters, :account) AND size(#reporters) = :size',
            values: { ':account': account, ':size': tally.reporters.length },
          },
        ),
      );
      if (meta.drift?.sha256 === sha256 && tally.reporters.length - 1 < ctx.config.driftReporters) change.dropDrift(sha256);
    }
  }
  const metaUpdate = change.update(slug);
  return metaUpdate === undefined ? actions : [...actions, metaUpdate];
}

class MetaChange {
  readonly #set: string[] = [];
  readonly #delete: string[] = [];
  readonly #remove: string[] = [];
  readonly #removeClauses: string[] = [];
  readonly #conditions: string[] = [];
  readonly #names: Record<string, string> = {};
  readonly #values: Record<string, unknown> = {};

  /** `counts` is the map the report was counted in: `counts`, or `new_counts` for a new account's (design.md#new-accounts). */
  uncount(account: string, bucket: string, counts: string): void {
    this.shift(bucket, -1, counts);
    Object.assign(this.#names, { '#reproducers': 'reproducers' });
    Object.assign(this.#values, { ':member': account, ':memberSet': new Set([account]) });
    this.#delete.push('#reproducers :memberSet');
    this.#conditions.push('contains(#reproducers, :member)');
  }

  /** uncountFlagger's rule: the flagger leaves the map and the count goes back, only while it is in it. */
  unflag(account: string): void {
    Object.assign(this.#names, { '#flaggers': 'flaggers', '#flagger': account, '#flagCount': 'flag_count' });
    this.#values[':oneFlag'] = 1;
    this.#set.push('#flagCount = #flagCount - :oneFlag');
    this.#removeClauses.push('#flaggers.#flagger');
    this.#conditions.push('attribute_exists(#flaggers.#flagger)');
  }

  shift(bucket: string, delta: number, counts = 'counts'): void {
    const index = this.#set.length;
    Object.assign(this.#names, { [`#c${index}`]: counts, [`#b${index}`]: bucket });
    this.#values[`:d${index}`] = delta;
    this.#set.push(`#c${index}.#b${index} = #c${index}.#b${index} + :d${index}`);
  }

  /** The "changed since publish" flag rested on this hash, which now has fewer than two reporters. */
  dropDrift(sha256: string): void {
    Object.assign(this.#names, { '#drift': 'drift', '#sha': 'sha256' });
    this.#values[':sha'] = sha256;
    this.#remove.push('drift');
    this.#conditions.push('#drift.#sha = :sha');
  }

  update(slug: string): WriteAction | undefined {
    if (this.#set.length + this.#delete.length + this.#remove.length + this.#removeClauses.length === 0) return undefined;
    return updateItem(
      storyKey(slug),
      {
        setClauses: this.#set,
        deleteClauses: this.#delete,
        remove: this.#remove,
        removeClauses: this.#removeClauses,
        names: this.#names,
        values: this.#values,
      },
      this.#conditions.length === 0 ? undefined : { expression: this.#conditions.join(' AND ') },
    );
  }
}
