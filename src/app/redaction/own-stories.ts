// What the account page's redact form needs: the signed-in author's stories (newest first, one
// page), and one of them with its current markdown and revision, for the form to pre-fill.

import { authorIndexPages } from '../../store/identity/account/pages.ts';
import { authorPartition, bodyKey, keyId, storyKey } from '../../store/keys.ts';
import { readItems } from '../../store/read-items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { ownStory } from '../caller/story-access.ts';
import type { AppContext, Caller } from '../context/app-context.ts';

export interface OwnStoryLine {
  slug: string;
  title: string;
  revision: number;
}

/** The caller's stories, at most `limit`, in the author index's order. */
export async function ownStories(ctx: AppContext, caller: Caller, limit = 100): Promise<OwnStoryLine[]> {
  const lines: OwnStoryLine[] = [];
  for await (const page of authorIndexPages(ctx.store, { partition: authorPartition(caller.account), limit })) {
    for (const item of page) lines.push({ slug: String(item.slug), title: String(item.title), revision: Number(item.revision) });
    break;
  }
  return lines;
}

/** One of the caller's stories with its current text; not_found or forbidden as any author-only write. */
export async function ownStoryText(ctx: AppContext, caller: Caller, slug: string): Promise<OwnStoryLine & { markdown: string }> {
  const read = await readItems(ctx.store, [storyKey(slug), bodyKey(slug)]);
  const item = read.get(keyId(storyKey(slug)));
  const meta = ownStory(item === undefined ? undefined : toStoryMeta(item), slug, caller, 'redact it');
  return { slug, title: meta.title, revision: meta.revision, markdown: String(read.get(keyId(bodyKey(slug)))?.markdown ?? '') };
}
