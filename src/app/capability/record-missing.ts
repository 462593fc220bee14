// The capability records a walk finds missing: a listed story whose report is current has its
// text's record unless the story was stored before records existed, or its text was first listed
// by an unhide (set_visibility writes only the flag). The re-scan job creates those from the
// report on META, so the badge by hash works for every listed story once a walk has passed it.
// Created once, like every record: a record that exists is left alone, and one created by a
// concurrent write is the same fact. A story hidden between the read and the write leaves a
// record of a text that was public at the read, as hiding after a publish does.
import type { CapabilityReport } from '../../domain/capability/report.ts';
import { keyId, storyKey } from '../../store/keys.ts';
import { readItems } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { capabilityRecordKey, createCapabilityRecord } from '../../store/story/capability-record-items.ts';
import type { StoryScanState } from '../../store/story/story-capability-scan.ts';
import { isListedPublicly } from '../../store/story/story-items.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** Creates the missing records of the page's listed, scanned stories; answers the slugs it recorded. */
export async function recordMissing(ctx: AppContext, stories: readonly StoryScanState[]): Promise<string[]> {
  const listed = stories.filter(
    (story) => story.sha256 !== undefined && story.scanner_version !== undefined && isListedPublicly(story.visibility, story.hidden),
  );
  if (listed.length === 0) return [];
  const recordKey = (story: StoryScanState) => capabilityRecordKey(String(story.sha256), String(story.scanner_version));
  const present = await readItems(ctx.store, listed.map(recordKey));
  const missing = listed.filter((story) => !present.has(keyId(recordKey(story))));
  if (missing.length === 0) return [];
  const metas = await readItems(
    ctx.store,
    missing.map((story) => storyKey(story.slug)),
  );
  const recorded: string[] = [];
  const at = new Date(ctx.store.now()).toISOString();
  for (const meta of metas.values()) {
    const report = meta.capability as CapabilityReport | undefined;
    if (report === undefined || !isListedPublicly(String(meta.visibility), meta.hidden === true)) continue;
    try {
      await writeAtomically(ctx.store, [createCapabilityRecord(report, at)]);
      recorded.push(String(meta.slug));
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
    }
  }
  return recorded.sort();
}
