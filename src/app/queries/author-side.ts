// What get_story shows about the author, read in one BatchGetItem: their current handle
// (ACCOUNT#id) and their own reproduction of the story (REPRO#author), for the author's re-run
// (docs/design.md §10). Both keys are known once META is read, so the re-run costs no round trip.
import { authorRecheck, recheckText } from '../../domain/story/author-recheck.ts';
import { toAccount } from '../../store/identity/account-items.ts';
import { accountKey, reproductionKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { toReproduction } from '../../store/story/reproduction-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../app-context.ts';
import type { AuthorRecheckView } from '../contract/author-recheck-schema.ts';
import type { RevisionView } from './get-story.contract.ts';

export interface AuthorSide {
  handles: ReadonlyMap<string, string>;
  recheck: AuthorRecheckView | undefined;
}

export async function readAuthorSide(ctx: AppContext, meta: StoryMeta, revisions: readonly RevisionView[]): Promise<AuthorSide> {
  const items = await readItems(ctx.store, [accountKey(meta.author), reproductionKey(meta.slug, meta.author)]);
  const account = pick(items, accountKey(meta.author));
  // An account with no item (an admin-made id, or one from before accounts were recorded) shows its id.
  const handles = new Map([[meta.author, account === undefined ? meta.author : toAccount(account).handle]]);
  const report = pick(items, reproductionKey(meta.slug, meta.author));
  const recheck = authorRecheck(report === undefined ? undefined : toReproduction(report), revisions);
  return { handles, recheck: recheck === undefined ? undefined : { ...recheck, text: recheckText(recheck, isoDay) } };
}

const isoDay = (iso: string): string => iso.slice(0, 10);
