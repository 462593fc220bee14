// The answer item (design.md#answered-fail): `STORY#<fail> / ANSWER#<success>`, one per pair, created once in
// the success story's publish or edit transaction together with the fail author's notification.
// An edit that drops the name sets `linked: false` rather than deleting it, so naming the fail
// story again revives the same item and can never notify a second time.
import type { StoredItem, WriteAction } from '../actions.ts';
import { answerKey } from '../keys.ts';
import { type ItemsByKey, pick } from '../read-items.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export interface AnswerLink {
  fail: string;
  answer: string;
  answer_author: string;
  at: string;
}

export function answerItem(link: AnswerLink): StoredItem {
  return { ...answerKey(link.fail, link.answer), ...link, linked: true };
}

/** The pair's item in a snapshot: absent, linked, or kept unlinked. */
export function answerStateOf(read: ItemsByKey, fail: string, answer: string): 'absent' | 'linked' | 'unlinked' {
  const item = pick(read, answerKey(fail, answer));
  if (item === undefined) return 'absent';
  return item.linked === true ? 'linked' : 'unlinked';
}

export const createAnswer = (link: AnswerLink): WriteAction => createItem(answerItem(link));

/** Sets the pair linked or not; the item exists (attribute_exists), so nothing stray is created. */
export const setAnswerLinked = (fail: string, answer: string, linked: boolean, at: string): WriteAction =>
  updateItem(answerKey(fail, answer), { set: { linked, at } });
