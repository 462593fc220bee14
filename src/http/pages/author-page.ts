// `/a/{handle}`: one author's public stories, newest first, and how many people each worked for.
import { html } from 'hono/html';
import type { AppContext } from '../../app/context/app-context.ts';
import { authorByHandle } from '../../app/queries/author-by-handle.ts';
import { MAX_LIST_LIMIT } from '../../app/queries/list-stories.contract.ts';
import { listStories } from '../../app/queries/list-stories.ts';
import { type Html, layout } from './layout.ts';
import { authorPath, plural } from './page-format.ts';
import { storyList } from './story-list.ts';

export async function authorPage(ctx: AppContext, baseUrl: string, handle: string, cursor: string | undefined): Promise<Html> {
  const author = await authorByHandle(ctx, handle);
  const list = await listStories(ctx, undefined, {
    author: author.account,
    limit: MAX_LIST_LIMIT,
    ...(cursor === undefined ? {} : { cursor }),
  });
  const path = authorPath(author.handle);
  const worked = list.stories.reduce((sum, story) => sum + story.counts.worked, 0);
  // @NOTE the totals are of the stories on this page; an author with more than a page of
  // stories sees "on this page", rather than a second walk of every story on each view.
  const scope = list.cursor === undefined && cursor === undefined ? '' : ' on this page';
  const line = `${plural(list.stories.length, 'story', 'stories')}${scope} · worked for ${plural(worked, 'person', 'people')} who reproduced them`;
  return layout(
    { title: `@${author.handle} — lorebook`, description: `Stories by @${author.handle} on lorebook: ${line}.`, url: `${baseUrl}${path}` },
    html`<section class="card">
<h1>@${author.handle}</h1>
<p class="summary-line">${line}</p>
</section>
${storyList(list.stories, {
  showAuthor: false,
  olderHref: list.cursor === undefined ? undefined : `${path}?cursor=${encodeURIComponent(list.cursor)}`,
  emptyText: `@${author.handle} has no public stories.`,
})}`,
  );
}
