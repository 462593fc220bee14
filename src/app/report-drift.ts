// report_drift — a reader's agent re-scanned the steps it actually ran and reports their sha256
// (design.md#drift). One report per (story, account, hash), replaced by key. A hash other than the
// published one, reported by a reproducer of the story (moderation/report-drift-standing.ts), counts its
// reporter once in the hash's tally (primitive 2); the reporter that brings the tally to the
// threshold (LOREBOOK_DRIFT_REPORTERS) since the story last changed marks the story "changed
// since publish" and tells the author, once per hash, in the same transaction. A matching hash,
// the author's own report and a report by someone who never reproduced the story are kept but
// never counted; a reporter whose reproduction predates the current revision is refused.
import { categoriesOf, categoryDrift } from '../domain/capability/category-drift.ts';
import type { CapabilityReport } from '../domain/capability/report.ts';
import { LorebookError } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { noteReportOn } from '../store/identity/account/index-items.ts';
import { driftReportKey, driftTallyKey, reproductionKey, storyKey } from '../store/keys.ts';
import { checkItem, createItem, replaceItem } from '../store/replace-by-key.ts';
import { atRevision, type DriftFlag, setDriftFlag } from '../store/story/drift-flag.ts';
import {
  type DriftReport,
  type DriftTally,
  driftReportAsRead,
  driftReportItem,
  driftReportOf,
  driftTallyOf,
  joinTally,
  restartTally,
  startTally,
} from '../store/story/drift-items.ts';
import { notificationItem } from '../store/story/notification-items.ts';
import { unchangedSince } from '../store/story/report-items.ts';
import { type Reproduction, reproductionOf } from '../store/story/reproduction-items.ts';
import { type StoryMeta, storyMetaOf } from '../store/story/story-items.ts';
import { visibleStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { mayCorroborateDrift, reproducedBeforeRevision, reproductionOutdated } from './moderation/report-drift-standing.ts';
import { type DriftOutcome, REPORT_DRIFT_TOOL, reportDriftInputSchema } from './report-drift.contract.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function reportDrift(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DriftOutcome>> {
  const input = await parseWriteInput(reportDriftInputSchema, raw, REPORT_DRIFT_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  // Hex case is spelling, not identity: one hash is one report.
  const sha256 = input.sha256.toLowerCase();
  // The categories are the report's identity; the evidence only explains them to the reader.
  const categories = input.findings === undefined ? undefined : categoriesOf(input.findings);
  const reportKey = driftReportKey(slug, sha256, caller.account);

  return writeOnce(ctx, {
    tool: REPORT_DRIFT_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(REPORT_DRIFT_TOOL, { slug, sha256, categories: categories ?? null }),
    reads: [storyKey(slug), reportKey, driftTallyKey(slug, sha256), reproductionKey(slug, caller.account)],
    plan(read, { now }): WritePlan<DriftOutcome> {
      const meta = visibleStory(storyMetaOf(read, slug), slug, caller);
      const published = meta.capability;
      if (published === undefined) throw notScanned(slug);
      const reproduction = reproductionOf(read, slug, caller.account);
      if (reproducedBeforeRevision(meta, reproduction)) throw reproductionOutdated(meta, reproduction as Reproduction);
      const stored = driftTallyOf(read, slug, sha256);
      // A tally of an older revision counted readers of steps that have changed since: it starts over.
      const tally = stored?.revision === meta.revision ? stored : undefined;
      const matches = sha256 === published.sha256;
      const counted = !matches && mayCorroborateDrift(meta, { account: caller.account, reproduction });
      const existing = driftReportOf(read, slug, sha256, caller.account);
      const report: DriftReport = {
        slug,
        account: caller.account,
        sha256,
        categories,
        revision: meta.revision,
        matches,
        counted,
        at: new Date(now).toISOString(),
      };
      const answer = (reporters: number, drift: DriftFlag | undefined): DriftOutcome => outcome(meta, published, report, reporters, drift);
      const reporters = tally?.reporters ?? [];
      const joins = counted && !reporters.includes(caller.account);
      // `counted` was decided from the reproduction read: a change to it in between re-plans.
      const reproduced = reproduction === undefined ? [] : [checkItem(reproductionKey(slug, caller.account), unchangedSince(reproduction))];

      if (existing !== undefined && !joins && sameReport(existing, report)) {
        return {
          outcome: answer(reporters.length, meta.drift),
          actions: [],
          guards: [checkItem(reportKey, driftReportAsRead(existing)), checkItem(storyKey(slug), atRevision(meta.revision)), ...reproduced],
        };
      }
      const reportWrite =
        existing === undefined ? createItem(driftReportItem(report)) : replaceItem(driftReportItem(report), driftReportAsRead(existing));
      // Where account deletion finds this report again (design.md#account-deletion); the same item on every write.
      const indexed = noteReportOn(caller.account, slug, sha256);
      if (!joins) {
        return {
          outcome: answer(reporters.length, meta.drift),
          actions: [reportWrite, indexed, checkItem(storyKey(slug), atRevision(meta.revision)), ...reproduced],
          guards: [],
        };
      }
      if (reporters.length >= ctx.config.reproducerCap) throw reporterCapReached(slug, ctx.config.reproducerCap);
      const threshold = ctx.config.driftReporters;
      // At the threshold or past it (a lowered setting): the story is marked unless another hash already did.
      const corroborates = reporters.length + 1 >= threshold;
      const raised = corroborates && meta.drift === undefined ? { sha256, since: report.at } : undefined;
      const tellsAuthor = corroborates && stored?.notified_at === undefined;
      const actions: WriteAction[] = [
        reportWrite,
        indexed,
        tallyJoin(ctx, meta, sha256, stored, caller.account, tellsAuthor ? report.at : undefined),
        raised === undefined ? checkItem(storyKey(slug), atRevision(meta.revision)) : setDriftFlag(slug, meta.revision, raised),
        ...reproduced,
      ];
      if (tellsAuthor) actions.push(createItem(notificationItem(driftNotice(meta, sha256, caller, report.at, reporters.length + 1))));
      return { outcome: answer(reporters.length + 1, raised ?? meta.drift), actions, guards: [] };
    },
  });
}

/** The write that counts the caller in the hash's tally for the story's current revision. */
function tallyJoin(
  ctx: AppContext,
  meta: StoryMeta,
  sha256: string,
  stored: DriftTally | undefined,
  reporter: string,
  notifiedAt: string | undefined,
): WriteAction {
  if (stored === undefined) return startTally(meta.slug, sha256, meta.revision, reporter);
  if (stored.revision !== meta.revision) return restartTally(meta.slug, stored, meta.revision, reporter);
  return joinTally({
    slug: meta.slug,
    sha256,
    revision: meta.revision,
    reporter,
    cap: ctx.config.reproducerCap,
    ...(notifiedAt === undefined ? {} : { notifiedAt }),
  });
}

/** Same hash, same revision, same categories, counted alike: a second report like it changes nothing. */
function sameReport(a: DriftReport, b: DriftReport): boolean {
  return (
    a.revision === b.revision && a.counted === b.counted && JSON.stringify(a.categories ?? null) === JSON.stringify(b.categories ?? null)
  );
}

function outcome(
  meta: StoryMeta,
  published: CapabilityReport,
  report: DriftReport,
  reporters: number,
  drift: DriftFlag | undefined,
): DriftOutcome {
  return {
    slug: meta.slug,
    sha256: report.sha256,
    matches: report.matches,
    published: { sha256: published.sha256, tier: published.tier, scanner_version: published.scanner_version },
    counted: report.counted,
    categories: report.categories === undefined ? null : categoryDrift(categoriesOf(published.findings), report.categories),
    reporters,
    changed_since_publish: drift !== undefined,
    drift: drift ?? null,
  };
}

/**
 * The author's notice, once per hash: only the report that corroborates a hash (the reporter that
 * reaches the threshold) writes it, and only while the tally says the author was never told of it,
 * so neither one reader's stray hashes nor a re-corroboration after an edit tells them again.
 */
function driftNotice(meta: StoryMeta, sha256: string, caller: Caller, at: string, reporters: number) {
  return {
    recipient: meta.author,
    kind: 'drift' as const,
    story: meta.slug,
    story_title: meta.title,
    actor: caller.account,
    actor_handle: caller.handle,
    text: `${reporters} readers who reproduced it ran steps of "${meta.title}" that differ from what you published (sha256 ${sha256.slice(0, 12)}…): the story shows "changed since publish" until you edit it.`,
    at,
    discriminator: sha256,
  };
}

function notScanned(slug: string): LorebookError {
  return new LorebookError(
    'conflict',
    `"${slug}" was last written before lorebook scanned stories, so it has no published sha256 to compare with. Nothing was recorded; the author's next edit scans it.`,
    { retryable: false, details: { slug } },
  );
}

function reporterCapReached(slug: string, cap: number): LorebookError {
  return new LorebookError(
    'conflict',
    `This hash of "${slug}" already has ${cap} reporters, the most one hash counts. Your report was not recorded; retrying will not change that.`,
    { retryable: false, details: { slug, reporter_cap: cap } },
  );
}
