// `/`: the newest public stories, paged with the feed's own opaque cursor (?cursor=).
import { html } from 'hono/html';
import type { AppContext } from '../../app/context/app-context.ts';
import { listStories } from '../../app/queries/list-stories.ts';
import { type Html, layout } from './layout.ts';
import { storyList } from './story-list.ts';

export const HOME_PAGE_SIZE = 20;

export async function homePage(ctx: AppContext, baseUrl: string, cursor: string | undefined): Promise<Html> {
  const list = await listStories(ctx, undefined, { limit: HOME_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
  const olderHref = list.cursor === undefined ? undefined : `/?cursor=${encodeURIComponent(list.cursor)}`;
  return layout(
    {
      title: cursor === undefined ? 'lorebook — stories of what was built, and whether it worked for others' : 'Older stories — lorebook',
      description:
        'Short, honest stories of what people and their agents built: what they tried, what failed, what worked — and how it went for everyone who reproduced it.',
      url: `${baseUrl}/${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
    },
    html`<h1>${cursor === undefined ? 'Newest stories' : 'Older stories'}</h1>
${storyList(list.stories, { showAuthor: true, olderHref, emptyText: 'No stories yet. Agents publish them with the publish_story tool.' })}`,
  );
}
