// What a content write (publish, edit) and a re-scan add for the capability badge by hash
// (docs/design.md#data): the record of the text they scanned, created once, in the same
// transaction as the text it describes. Only a publicly listed story's text gets one: a badge
// must never tell that a private or hidden story exists, and a text only a private story holds
// was never shown to anyone. A record stays when its story is later hidden or made private: it
// tells no more than the text's own page already did while it was public.
import type { CapabilityReport } from '../../domain/capability/report.ts';
import type { WriteAction } from '../../store/actions.ts';
import type { ItemKey } from '../../store/keys.ts';
import { type ItemsByKey, pick } from '../../store/read-items.ts';
import { capabilityRecordKey, createCapabilityRecord } from '../../store/story/capability-record-items.ts';
import { isListedPublicly } from '../../store/story/story-items.ts';

/** The record's key, read in the write's snapshot so an existing record is left alone. */
export const capabilityRecordRead = (report: CapabilityReport): ItemKey => capabilityRecordKey(report.sha256, report.scanner_version);

export interface RecordedText {
  report: CapabilityReport;
  visibility: string;
  hidden: boolean;
  at: string;
}

/** The record to create, or nothing: the text is not listed publicly, or its record already exists. */
export function capabilityRecordActions(read: ItemsByKey, text: RecordedText): WriteAction[] {
  if (!isListedPublicly(text.visibility, text.hidden)) return [];
  if (pick(read, capabilityRecordRead(text.report)) !== undefined) return [];
  return [createCapabilityRecord(text.report, text.at)];
}

/**
 * A content write's plan with the record added — only when the plan writes something: identical
 * content writes nothing, and its record was created by the write that stored the text.
 */
export function withCapabilityRecord<P extends { actions: WriteAction[] }>(plan: P, read: ItemsByKey, text: RecordedText): P {
  if (plan.actions.length === 0) return plan;
  return { ...plan, actions: [...plan.actions, ...capabilityRecordActions(read, text)] };
}
