// What the history of a story says on its page: "reworded" when it was rephrased, "updated
// <date>" for the latest addition (or republish), "corrected <date>" for every correction, with
// the correction notes spelled out — a reader must see what changed in a story they may have
// reproduced already.
import type { RevisionView } from '../../app/queries/get-story.contract.ts';

export interface RevisionBadge {
  kind: 'reworded' | 'updated' | 'corrected';
  text: string;
}

export interface CorrectionNote {
  at: string;
  note: string;
}

export function revisionBadges(
  revisions: readonly RevisionView[],
  format: (at: string) => string,
): { badges: RevisionBadge[]; corrections: CorrectionNote[] } {
  const badges: RevisionBadge[] = [];
  if (revisions.some((revision) => revision.kind === 'rephrase')) badges.push({ kind: 'reworded', text: 'reworded' });
  const updated = revisions.filter((revision) => revision.kind === 'addition' || revision.kind === 'republish').at(-1);
  if (updated !== undefined) badges.push({ kind: 'updated', text: `updated ${format(updated.at)}` });
  const corrections = revisions.filter((revision) => revision.kind === 'correction');
  for (const correction of corrections) badges.push({ kind: 'corrected', text: `corrected ${format(correction.at)}` });
  return { badges, corrections: corrections.map((correction) => ({ at: correction.at, note: correction.note ?? '' })) };
}
