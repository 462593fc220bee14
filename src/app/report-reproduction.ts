// report_reproduction — one report per (story, account), keyed by both (docs/design.md#write-rules). A first report
// creates REPRO#account and counts the account in the story's reproducer list in one transaction,
// with the author's notification; a changed report replaces it and moves the one count, guarded by
// the result it read; an identical report writes nothing, unless the story has a newer revision
// than the report (then it is renewed: a re-run of the current steps, design.md#drift). The author's
// own report is kept but never counted and tells nobody.
import { LorebookError } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { normaliseText } from '../domain/free-text.ts';
import { parseOpId } from '../domain/op-id.ts';
import { agentMetadata, envMetadata } from '../domain/report-metadata.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { noteReportOn } from '../store/identity/account/index-items.ts';
import { reproductionKey, storyKey } from '../store/keys.ts';
import { type AlsoChanges, countMember, moveMemberCount } from '../store/list-conditioned-counter.ts';
import { checkItem, createItem, replaceItem } from '../store/replace-by-key.ts';
import { isHeld, releaseHold } from '../store/story/announce/hold.ts';
import { notificationItem } from '../store/story/notification-items.ts';
import { stillReported, unchangedSince } from '../store/story/report-items.ts';
import {
  establishedReproducers,
  firstReportCounter,
  type Reproduction,
  type ReproductionResult,
  reproducerCounter,
  reproductionCounts,
  reproductionItem,
  reproductionOf,
  sameReproduction,
} from '../store/story/reproduction-items.ts';
import { type Counts, type StoryMeta, storyMetaOf } from '../store/story/story-items.ts';
import { visibleStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { countWrite } from './context/metrics.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { isNewAccount } from './moderation/established.ts';
import { REPORT_REPRODUCTION_TOOL, type ReproductionOutcome, reportReproductionInputSchema } from './report-reproduction.contract.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function reportReproduction(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<ReproductionOutcome>> {
  const input = await parseWriteInput(reportReproductionInputSchema, raw, REPORT_REPRODUCTION_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const agent = agentMetadata(input.agent);
  const env = envMetadata(input.env);
  // The summaries are the report's identity: an object and its summary string describe one report.
  const report = { result: input.result, note: normaliseText(input.note), agent: agent.summary, env: env.summary };
  const measurements = { duration_min: input.duration_min, tokens: input.tokens };
  const metadata = { agent_fields: agent.fields, env_fields: env.fields };

  // Set by the plan that commits: its release of a held announcement starts an attempt after the commit.
  let released = false;
  const answer = await writeOnce(ctx, {
    tool: REPORT_REPRODUCTION_TOOL,
    caller,
    opId,
    // Measurements (duration_min, tokens) are left out: a replay that re-measured is the same report.
    fingerprint: fingerprint(REPORT_REPRODUCTION_TOOL, {
      slug,
      result: report.result,
      note: report.note ?? null,
      agent: report.agent ?? null,
      env: report.env ?? null,
    }),
    reads: [storyKey(slug), reproductionKey(slug, caller.account)],
    plan(read, { now }): WritePlan<ReproductionOutcome> {
      const meta = visibleStory(storyMetaOf(read, slug), slug, caller);
      const existing = reproductionOf(read, slug, caller.account);
      const next = { slug, account: caller.account, ...report, ...measurements, ...metadata, at: new Date(now).toISOString() };
      // The author's own report is kept but never counted; `counted` and `new_account` are decided once, at the first report.
      if (existing === undefined) {
        const counted = meta.author !== caller.account;
        const isNew = isNewAccount(ctx, read, caller, now);
        const first = { ...next, counted, ...(counted && isNew ? { new_account: true } : {}) };
        const release = counted && !isNew ? heldRelease(meta, now) : undefined;
        released = release !== undefined;
        return planFirstReport(ctx, meta, first, caller, release);
      }
      released = false;
      const kept = { counted: existing.counted, ...(existing.new_account === true ? { new_account: true } : {}) };
      if (sameReproduction(existing, report)) {
        return existing.at < meta.updated_at ? planRenewed(meta, existing, { ...next, ...kept }) : planUnchanged(meta, existing);
      }
      return planChangedReport(meta, existing, { ...next, ...kept }, caller);
    },
  });
  const counted = countWrite(ctx, 'Reports', answer);
  return released ? announceAfterCommit(ctx, counted) : counted;
}

function planFirstReport(
  ctx: AppContext,
  meta: StoryMeta,
  report: Reproduction,
  caller: Caller,
  release: AlsoChanges | undefined,
): WritePlan<ReproductionOutcome> {
  if (!report.counted) {
    return {
      outcome: outcome(meta, report.result, false, meta.counts, establishedReproducers(meta)),
      actions: [createItem(reproductionItem(report)), noteReportOn(report.account, meta.slug)],
      guards: [],
    };
  }
  // Checked here from what was read; countMember's own cap condition closes the race past it.
  if (meta.reproducers.length >= ctx.config.reproducerCap) throw reproducerCapReached(meta, ctx.config.reproducerCap);
  const established = report.new_account !== true;
  return {
    outcome: outcome(
      meta,
      report.result,
      true,
      established ? { ...meta.counts, [report.result]: meta.counts[report.result] + 1 } : meta.counts,
      establishedReproducers(meta) + (established ? 1 : 0),
    ),
    actions: [
      createItem(reproductionItem(report)),
      noteReportOn(report.account, meta.slug),
      countMember(firstReportCounter(meta, report), report.result, ctx.config.reproducerCap, release),
      createItem(notificationItem(reproductionNotice(meta, report, caller, `reported "${report.result}" reproducing`))),
    ],
    guards: [],
  };
}

/** Identical report: nothing to write. With an op_id, the op commits with a check that it still is. */
function planUnchanged(meta: StoryMeta, existing: Reproduction): WritePlan<ReproductionOutcome> {
  return {
    outcome: outcome(meta, existing.result, existing.counted, meta.counts, establishedReproducers(meta)),
    actions: [],
    guards: [checkItem(reproductionKey(meta.slug, existing.account), unchangedSince(existing))],
  };
}

/**
 * The same report of a story revised since: the re-run of its current steps, so `at` moves on
 * (report_drift accepts a reproducer's hash only from then). No count moves and nobody is told:
 * the result is the one already counted. Conditioned on the `at` read, so of 16 at once one
 * renews and the rest find it current.
 */
function planRenewed(meta: StoryMeta, existing: Reproduction, report: Reproduction): WritePlan<ReproductionOutcome> {
  return {
    outcome: outcome(meta, existing.result, existing.counted, meta.counts, establishedReproducers(meta)),
    actions: [replaceItem(reproductionItem(report), unchangedSince(existing))],
    guards: [],
  };
}

function planChangedReport(meta: StoryMeta, existing: Reproduction, report: Reproduction, caller: Caller): WritePlan<ReproductionOutcome> {
  const actions: WriteAction[] = [replaceItem(reproductionItem(report), stillReported(existing))];
  let counts = meta.counts;
  if (report.counted && report.result !== existing.result) {
    actions.push(moveMemberCount(reproducerCounter(meta.slug, report), existing.result, report.result));
    // A new account's report moves `new_counts`, which the answer's counts do not show.
    if (report.new_account !== true) {
      counts = { ...counts, [existing.result]: counts[existing.result] - 1, [report.result]: counts[report.result] + 1 };
    }
  }
  if (report.counted) {
    actions.push(createItem(notificationItem(reproductionNotice(meta, report, caller, `changed their report to "${report.result}" on`))));
  }
  return { outcome: outcome(meta, report.result, report.counted, counts, establishedReproducers(meta)), actions, guards: [] };
}

/**
 * The author's notification. Its key comes from the report it announces (the REPRO's `at` and
 * its identity), so a redelivered report lands on the same key instead of a second notification.
 */
function reproductionNotice(meta: StoryMeta, report: Reproduction, caller: Caller, what: string) {
  return {
    recipient: meta.author,
    kind: 'reproduction' as const,
    story: meta.slug,
    story_title: meta.title,
    actor: caller.account,
    actor_handle: caller.handle,
    text: `${caller.handle} ${what} "${meta.title}".`,
    at: report.at,
    discriminator: JSON.stringify([report.result, report.note ?? null, report.agent ?? null, report.env ?? null]),
  };
}

function outcome(meta: StoryMeta, result: ReproductionResult, counted: boolean, counts: Counts, reproducers: number): ReproductionOutcome {
  return { slug: meta.slug, result, counted, counts: reproductionCounts(counts), reproducers_count: reproducers };
}

/** An established account's first counted report releases a held announcement (design.md#new-accounts), in the same update of META. */
function heldRelease(meta: StoryMeta, now: number): AlsoChanges | undefined {
  if (!isHeld(meta.announce, now)) return undefined;
  return releaseHold(meta, new Date(now).toISOString());
}

function reproducerCapReached(meta: StoryMeta, cap: number): LorebookError {
  return new LorebookError(
    'conflict',
    `"${meta.slug}" has reached its reproducer cap (${cap} reproducers), so no new reproduction can be counted. Your report was not recorded; retrying will not change that.`,
    { retryable: false, details: { slug: meta.slug, reproducer_cap: cap } },
  );
}
