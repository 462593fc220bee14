// Re-scans one stored story under a newer scanner version (docs/capability.md, "The re-scan"):
// its current BODY is scanned, and the new report replaces META's only while the story is still
// at the revision that was scanned and still holds the report that was read. A concurrent edit
// wins (it stored its own report of its own text) and is never overwritten with the report of a
// text it replaced; the same text and version give the same report, so two re-scans at once end
// in one identical record and a rerun finds nothing to do. REV#n keep the summary of the scan
// made when they were written: the history says what each revision's steps did back then.

import type { CapabilityReport } from '../../../domain/capability/report.ts';
import { compareScannerVersions } from '../../../domain/capability/version-order.ts';
import { LorebookError } from '../../../domain/errors.ts';
import { OffloadBudgetExceeded, OffloadFailed } from '../../../offload/offload.ts';
import { and, type Condition } from '../../../store/condition.ts';
import { bodyKey, storyKey } from '../../../store/keys.ts';
import { pick, readSnapshot } from '../../../store/read-items.ts';
import { type StoryMeta, storyMetaOf } from '../../../store/story/story-items.ts';
import { updateItem } from '../../../store/update-item.ts';
import type { AppContext } from '../../context/app-context.ts';
import { writeLoop } from '../../write/write-loop.ts';
import { capabilityRecordActions, capabilityRecordRead } from '../capability-record-write.ts';
import { type RescanInput, rescanOffloaded } from './story-task.ts';

export type RescanOutcome =
  /** The report under the new version is stored. */
  | 'rescanned'
  /** Already scanned by this version or a newer one: nothing written. */
  | 'current'
  /** Edited while it was being scanned: the edit's own report stands. */
  | 'edited'
  /** Deleted (or never there) by the time it was read. */
  | 'gone'
  /** Its stored markdown does not parse under today's rules, or ran past the parse budget: left as it is. */
  | 'unreadable';

export interface RescanResult {
  slug: string;
  outcome: RescanOutcome;
  /** The stored report's version before, when there was one. */
  from_version?: string;
  tier?: CapabilityReport['tier'];
  /** Why an unreadable story could not be scanned. */
  reason?: string;
}

/** How a story's text becomes a report: the offload worker in production; a test may wrap it. */
export type RescanScan = (input: RescanInput) => Promise<CapabilityReport>;

/** Stale: never scanned, or scanned by an older version than `scannerVersion`. */
export function needsRescan(storedVersion: string | undefined, scannerVersion: string): boolean {
  return storedVersion === undefined || compareScannerVersions(storedVersion, scannerVersion) < 0;
}

export async function rescanStory(
  ctx: AppContext,
  slug: string,
  scannerVersion: string,
  scan: RescanScan = (input) => rescanOffloaded(input, ctx),
): Promise<RescanResult> {
  const snapshot = await readSnapshot(ctx.store, [storyKey(slug), bodyKey(slug)]);
  const scanned = storyMetaOf(snapshot, slug);
  const body = pick(snapshot, bodyKey(slug));
  if (scanned === undefined || body === undefined) return { slug, outcome: 'gone' };
  const fromVersion = scanned.capability?.scanner_version;
  const from = fromVersion === undefined ? {} : { from_version: fromVersion };
  if (!needsRescan(fromVersion, scannerVersion)) return { slug, outcome: 'current', ...from };

  let report: CapabilityReport;
  try {
    report = await scan({ markdown: String(body.markdown), scannerVersion });
  } catch (error) {
    const reason = unreadable(error);
    if (reason === undefined) throw error;
    return { slug, outcome: 'unreadable', ...from, reason };
  }

  return writeLoop<RescanResult>(ctx, {
    reads: [storyKey(slug), capabilityRecordRead(report)],
    plan(read, { now }) {
      const meta = storyMetaOf(read, slug);
      if (meta === undefined) return { outcome: { slug, outcome: 'gone', ...from }, actions: [] };
      if (meta.revision !== scanned.revision) return { outcome: { slug, outcome: 'edited', ...from }, actions: [] };
      if (!needsRescan(meta.capability?.scanner_version, scannerVersion))
        return { outcome: { slug, outcome: 'current', ...from }, actions: [] };
      const at = new Date(now).toISOString();
      return {
        outcome: { slug, outcome: 'rescanned', ...from, tier: report.tier },
        actions: [
          updateItem(storyKey(slug), { set: { capability: report } }, asScanned(meta, scanned.revision)),
          ...capabilityRecordActions(read, { report, visibility: meta.visibility, hidden: meta.hidden, at }),
        ],
      };
    },
  });
}

/**
 * The revision that was scanned (not the one just re-read: a re-plan after a cancelled write must
 * never bless a newer text with an older text's report), the hidden flag the record was decided
 * on, and the report that was read, so a concurrent re-scan or an edit cancels this one.
 */
function asScanned(meta: StoryMeta, scannedRevision: number): Condition {
  const read: Condition = {
    expression: '#revision = :scanned AND #hidden = :hidden',
    names: { '#revision': 'revision', '#hidden': 'hidden' },
    values: { ':scanned': scannedRevision, ':hidden': meta.hidden },
  };
  const version: Condition =
    meta.capability === undefined
      ? { expression: 'attribute_not_exists(#capability)', names: { '#capability': 'capability' } }
      : {
          expression: '#capability.#version = :old',
          names: { '#capability': 'capability', '#version': 'scanner_version' },
          values: { ':old': meta.capability.scanner_version },
        };
  return and(read, version);
}

/** A story the scanner cannot read is skipped with the reason; anything else (a store outage) stays an error. */
function unreadable(error: unknown): string | undefined {
  if (error instanceof LorebookError && (error.code === 'validation_failed' || error.code === 'payload_too_large')) return error.message;
  if (error instanceof OffloadBudgetExceeded) return 'the parse ran past its time budget';
  if (error instanceof OffloadFailed) return 'the parse ran out of the memory set aside for it';
  return undefined;
}
