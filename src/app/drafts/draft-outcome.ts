// The answer of a change of one draft (claim, decline, withdraw): the draft as it stands after
// it. The op record keeps the draft without its markdown; handles are resolved on the way out.
import { z } from 'zod';
import type { AppContext } from '../context/app-context.ts';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import type { Replayed } from '../write/write-once.ts';
import { type DraftRecord, draftViewSchema, presentDraft } from './draft-view.ts';

export const draftOutcomeSchema = z.object({ draft: draftViewSchema, replayed: replayedField });

export type DraftOutcome = Outcome<typeof draftOutcomeSchema>;

export interface StoredDraftChange {
  draft: DraftRecord;
}

export async function draftAnswer(ctx: AppContext, stored: Replayed<StoredDraftChange>): Promise<Replayed<DraftOutcome>> {
  return { draft: await presentDraft(ctx, stored.draft), ...(stored.replayed === true ? { replayed: true as const } : {}) };
}
