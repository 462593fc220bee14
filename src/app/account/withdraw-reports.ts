// The account's reports on one story, withdrawn the way their own withdraw paths do it (design
// §4.3, §9, §12), so each count moves back exactly once: a reproduction's delete names the result
// it read and takes its count back with primitive 2 (`contains(reproducers)`); a check's delete
// names its result and `counted` and shifts the count with it; a drift report leaves its hash's
// tally (`contains(reporters)`), and a "changed since publish" flag that rested on it drops when
// fewer than two reporters are left. Any of these changed since the read cancels the step, which
// the next run plans again.
import type { WriteAction } from '../../store/actions.ts';
import type { ReportOnStory } from '../../store/identity/account-index-items.ts';
import { checkKey, driftReportKey, driftTallyKey, reproductionKey, storyKey } from '../../store/keys.ts';
import { shiftCounts, uncountMember } from '../../store/list-conditioned-counter.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { deleteItemIf } from '../../store/replace-by-key.ts';
import { toCheckReport } from '../../store/story/check-items.ts';
import { driftReportOf, driftReportAsRead, driftTallyOf } from '../../store/story/drift-items.ts';
import { stillReported } from '../../store/story/report-items.ts';
import { reproducerCounter, reproductionOf } from '../../store/story/reproduction-items.ts';
import { isTombstone } from '../../store/story/story-tombstone.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext } from '../app-context.ts';

/** The story's drift flag needs this many reporters of its hash (design §12). */
const CORROBORATING_REPORTERS = 2;

export async function withdrawReportsOn(ctx: AppContext, account: string, report: ReportOnStory): Promise<WriteAction[]> {
  const { slug, sha256 } = report;
  const keys = [storyKey(slug), reproductionKey(slug, account), checkKey(slug, account)];
  if (sha256 !== undefined) keys.push(driftReportKey(slug, sha256, account), driftTallyKey(slug, sha256));
  const read = await readItems(ctx.store, keys);
  const metaItem = pick(read, storyKey(slug));
  // A story gone or tombstoned took its reports with it.
  if (metaItem === undefined || isTombstone(metaItem)) return [];
  const meta = toStoryMeta(metaItem);
  const actions: WriteAction[] = [];

  const reproduction = reproductionOf(read, slug, account);
  if (reproduction !== undefined) {
    actions.push(deleteItemIf(reproductionKey(slug, account), stillReported(reproduction)));
    if (reproduction.counted) actions.push(uncountMember(reproducerCounter(slug, account), reproduction.result));
  }

  const checkItem = pick(read, checkKey(slug, account));
  const check = checkItem === undefined ? undefined : toCheckReport(checkItem);
  const countMoves: Record<string, number> = {};
  if (check !== undefined) {
    actions.push(deleteItemIf(checkKey(slug, account), stillReported(check)));
    if (check.counted) countMoves[check.result] = -1;
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
      if (meta.drift?.sha256 === sha256 && tally.reporters.length - 1 < CORROBORATING_REPORTERS) {
        actions.push(dropDriftFlag(slug, sha256, countMoves));
        return actions;
      }
    }
  }
  if (Object.keys(countMoves).length > 0) actions.push(shiftCounts(storyKey(slug), 'counts', countMoves));
  return actions;
}

/** The flag off, with a check's count back in the same update (a transaction holds one action per item). */
function dropDriftFlag(slug: string, sha256: string, countMoves: Record<string, number>): WriteAction {
  const buckets = Object.entries(countMoves);
  return updateItem(
    storyKey(slug),
    buckets.length === 0
      ? { remove: ['drift'] }
      : {
          remove: ['drift'],
          setClauses: buckets.map((_, index) => `#counts.#b${index} = #counts.#b${index} + :d${index}`),
          names: { '#counts': 'counts', ...Object.fromEntries(buckets.map(([bucket], index) => [`#b${index}`, bucket])) },
          values: Object.fromEntries(buckets.map(([, delta], index) => [`:d${index}`, delta])),
        },
    { expression: '#drift.#sha = :sha', names: { '#drift': 'drift', '#sha': 'sha256' }, values: { ':sha': sha256 } },
  );
}
