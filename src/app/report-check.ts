// report_check — the account's answer to a story's "Check if this applies to you" (docs/design.md#write-rules):
// has_problem | no_problem, one per (story, account), the latest replaces. The first check's
// count rides on the CHECK#account item's creation condition in the same transaction; a change
// moves the count conditioned on the result it read; an identical check writes nothing. The
// author's own is kept uncounted. Checks notify nobody.
import { LorebookError, validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { normaliseText } from '../domain/free-text.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { noteReportOn } from '../store/identity/account/index-items.ts';
import { checkKey, storyKey } from '../store/keys.ts';
import { shiftCounts } from '../store/list-conditioned-counter.ts';
import { pick } from '../store/read-items.ts';
import { checkItem, createItem, replaceItem } from '../store/replace-by-key.ts';
import { isHeld, releaseHold } from '../store/story/announce/hold.ts';
import { type CheckReport, type CheckResult, checkReportItem, sameCheckReport, toCheckReport } from '../store/story/check-items.ts';
import { stillReported, unchangedSince } from '../store/story/report-items.ts';
import { type StoryMeta, storyMetaOf } from '../store/story/story-items.ts';
import { visibleStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { isNewAccount } from './moderation/established.ts';
import { type CheckOutcome, REPORT_CHECK_TOOL, reportCheckInputSchema } from './report-check.contract.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

/** Ways an agent may spell "the check does not apply to me", refused with a message saying so. */
const NOT_APPLICABLE = new Set(['not_applicable', 'not applicable', 'not-applicable', 'n/a', 'na', 'does_not_apply']);

export async function reportCheck(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<CheckOutcome>> {
  refuseNotApplicable(raw);
  const input = await parseWriteInput(reportCheckInputSchema, raw, REPORT_CHECK_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const note = normaliseText(input.note);
  const key = checkKey(slug, caller.account);

  // Set by the plan that commits: its release of a held announcement starts an attempt after the commit.
  let released = false;
  const answer = await writeOnce(ctx, {
    tool: REPORT_CHECK_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(REPORT_CHECK_TOOL, { slug, result: input.result, note: note ?? null }),
    reads: [storyKey(slug), key],
    plan(read, { now }): WritePlan<CheckOutcome> {
      const meta = visibleStory(storyMetaOf(read, slug), slug, caller);
      if (!meta.has_check) throw noCheckSection(slug);
      const stored = pick(read, key);
      const existing = stored === undefined ? undefined : toCheckReport(stored);
      const at = new Date(now).toISOString();
      released = false;
      const next: CheckReport = { slug, account: caller.account, result: input.result, note, counted: meta.author !== caller.account, at };

      if (existing === undefined) {
        // The CHECK item's creation condition is the guard: the bump cannot land without it.
        const actions: WriteAction[] = [createItem(checkReportItem(next)), noteReportOn(caller.account, slug)];
        // An established account's first counted check releases a held announcement (design.md#new-accounts), in the same update.
        const release = next.counted && isHeld(meta.announce, now) && !isNewAccount(ctx, read, caller, now) ? releaseHold(meta, at) : {};
        released = 'condition' in release;
        if (next.counted) actions.push(shiftCounts(storyKey(slug), 'counts', { [next.result]: 1 }, release));
        return { outcome: outcome(meta, next, next.counted ? { [next.result]: 1 } : {}), actions, guards: [] };
      }
      if (sameCheckReport(existing, next)) {
        return { outcome: outcome(meta, existing, {}), actions: [], guards: [checkItem(key, unchangedSince(existing))] };
      }
      const changed: CheckReport = { ...next, counted: existing.counted };
      const actions: WriteAction[] = [replaceItem(checkReportItem(changed), stillReported(existing))];
      const moves = changed.counted && changed.result !== existing.result ? { [existing.result]: -1, [changed.result]: 1 } : {};
      if (Object.keys(moves).length > 0) actions.push(shiftCounts(storyKey(slug), 'counts', moves));
      return { outcome: outcome(meta, changed, moves), actions, guards: [] };
    },
  });
  return released ? announceAfterCommit(ctx, answer) : answer;
}

function outcome(
  meta: StoryMeta,
  check: Pick<CheckReport, 'result' | 'counted'>,
  moves: Partial<Record<CheckResult, number>>,
): CheckOutcome {
  return {
    slug: meta.slug,
    result: check.result,
    counted: check.counted,
    checks: {
      has_problem: meta.counts.has_problem + (moves.has_problem ?? 0),
      no_problem: meta.counts.no_problem + (moves.no_problem ?? 0),
    },
  };
}

function refuseNotApplicable(raw: unknown): void {
  const result = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).result : undefined;
  if (typeof result === 'string' && NOT_APPLICABLE.has(result.trim().toLowerCase())) {
    throw validationFailed('A check that does not apply to you is not reported.', {
      result:
        'Do not call report_check when the story\'s "Applies if" does not match your project: report only has_problem or no_problem after running its read-only steps.',
    });
  }
}

function noCheckSection(slug: string): LorebookError {
  return new LorebookError(
    'conflict',
    `"${slug}" has no "Check if this applies to you" section, so there is nothing to report a check against. Use report_reproduction to say how reproducing it went.`,
    { retryable: false, details: { slug } },
  );
}
