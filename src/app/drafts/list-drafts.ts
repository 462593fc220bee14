// list_drafts — the caller's drafts, as drafter and as claimer, newest first, a bounded page at a
// time (one Query of the account's draft list items, one BatchGetItem of the drafts, one of the
// handles); or one of them with its markdown. Statuses are as of the read (`expired` included).
import { validationFailed } from '../../domain/errors.ts';
import { draftKey, draftListPrefix, toDraft } from '../../store/draft/draft-items.ts';
import { queryDrafts } from '../../store/draft/draft-list-query.ts';
import { readItem } from '../../store/read-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import { unknownDraft } from './draft-reference.ts';
import { presentDrafts } from './draft-view.ts';
import { DEFAULT_DRAFTS_PAGE, type DraftPage, LIST_DRAFTS_TOOL, listDraftsInputSchema } from './list-drafts.contract.ts';

export async function listDrafts(ctx: AppContext, caller: Caller, raw: unknown): Promise<DraftPage> {
  const input = parseInput(listDraftsInputSchema, raw, LIST_DRAFTS_TOOL);
  if (input.draft_id !== undefined) return oneDraft(ctx, caller, input.draft_id);
  const page = await queryDrafts(
    ctx.store,
    caller.account,
    input.limit ?? DEFAULT_DRAFTS_PAGE,
    input.cursor === undefined ? undefined : decodeCursor(input.cursor),
  );
  const views = await presentDrafts(
    ctx,
    page.drafts.map(({ draft }) => draft),
  );
  return {
    drafts: views.map((view, index) => ({ ...view, role: page.drafts[index]?.role ?? 'drafter' })),
    ...(page.next === undefined ? {} : { cursor: encodeCursor(page.next) }),
  };
}

async function oneDraft(ctx: AppContext, caller: Caller, id: string): Promise<DraftPage> {
  const item = await readItem(ctx.store, draftKey(id));
  const draft = item === undefined ? undefined : toDraft(item);
  if (draft === undefined || (draft.drafter !== caller.account && draft.claimer !== caller.account)) throw unknownDraft(id);
  const [view] = await presentDrafts(ctx, [draft], { withMarkdown: true });
  return { drafts: view === undefined ? [] : [{ ...view, role: draft.drafter === caller.account ? 'drafter' : 'claimer' }] };
}

const LIST_SORT_KEY = /^DRAFT#\d{4}-\d{2}-\d{2}T[0-9:.]+Z#[0-9a-f]{64}$/;

const encodeCursor = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  // Re-encoding must give the cursor back: base64url decoding alone forgives stray characters.
  if (encodeCursor(sortKey) !== cursor || !sortKey.startsWith(draftListPrefix) || !LIST_SORT_KEY.test(sortKey)) {
    throw validationFailed('The cursor is not one list_drafts gave out.', {
      cursor: 'Pass the cursor of the previous page unchanged, or leave it out to start from the newest draft.',
    });
  }
  return sortKey;
}
