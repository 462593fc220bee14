// What get_story reads once META is known, in one BatchGetItem: the author's current handle
// (ACCOUNT#id) and the drafter's, when someone drafted it for them (design.md#drafts), their own reproduction of the story (REPRO#author) for the author's re-run
// (docs/design.md#re-run), and on a success story the fail stories it answers (design.md#answered-fail). All the keys
// are known from META, so neither costs a round trip.
import { authorRecheck, recheckText } from '../../domain/story/author-recheck.ts';
import { toAccount } from '../../store/identity/account/items.ts';
import { accountKey, reproductionKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { toReproduction } from '../../store/story/reproduction-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import type { AnswerLinkView } from '../contract/answer-link-schema.ts';
import type { AuthorRecheckView } from '../contract/author-recheck-schema.ts';
import { answeredStoryKeys, answersOf } from './answer-pairs.ts';
import type { RevisionView } from './get-story.contract.ts';

export interface AuthorSide {
  handles: ReadonlyMap<string, string>;
  recheck: AuthorRecheckView | undefined;
  answers: AnswerLinkView[] | undefined;
}

export async function readAuthorSide(ctx: AppContext, meta: StoryMeta, revisions: readonly RevisionView[]): Promise<AuthorSide> {
  const people = meta.drafted_by === undefined ? [meta.author] : [meta.author, meta.drafted_by];
  const items = await readItems(ctx.store, [
    ...people.map(accountKey),
    reproductionKey(meta.slug, meta.author),
    ...answeredStoryKeys(meta),
  ]);
  // An account with no item (an admin-made id, or one from before accounts were recorded) shows its id.
  const handles = new Map(
    people.map((id) => {
      const account = pick(items, accountKey(id));
      return [id, account === undefined ? id : toAccount(account).handle];
    }),
  );
  const report = pick(items, reproductionKey(meta.slug, meta.author));
  const recheck = authorRecheck(report === undefined ? undefined : toReproduction(report), revisions);
  return {
    handles,
    recheck: recheck === undefined ? undefined : { ...recheck, text: recheckText(recheck, isoDay) },
    answers: answersOf(ctx, meta, items),
  };
}

const isoDay = (iso: string): string => iso.slice(0, 10);
