// The draft a claim URL stands for, as the claim page shows it to whoever holds the URL: the
// story as drafted, the drafter, the note and the status now. One read by the token's hash.
import { claimTokenIn, draftIdFor } from '../../domain/draft/claim-token.ts';
import { draftKey, toDraft } from '../../store/draft/draft-items.ts';
import { readItem } from '../../store/read-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { unknownClaimLink } from './draft-reference.ts';
import { type DraftView, presentDrafts } from './draft-view.ts';

export async function draftByClaimToken(ctx: AppContext, token: string): Promise<DraftView> {
  if (claimTokenIn(token) !== token) throw unknownClaimLink();
  const item = await readItem(ctx.store, draftKey(draftIdFor(token)));
  if (item === undefined) throw unknownClaimLink();
  const [view] = await presentDrafts(ctx, [toDraft(item)], { withMarkdown: true });
  if (view === undefined) throw unknownClaimLink();
  return view;
}
