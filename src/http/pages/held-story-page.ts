// A story held for review after readers flagged it (docs/moderation.md): neither its title nor
// its text is shown — either may be what it was flagged for — only that it is held.
import { html } from 'hono/html';
import { layout, type Html } from './layout.ts';
import { storyPath } from './page-format.ts';

export const HELD_STORY_TEXT = 'This story is held for review after readers flagged it.';

export function heldStoryPage(slug: string, baseUrl: string): Html {
  return layout(
    { title: 'Held for review — lorebook', url: `${baseUrl}${storyPath(slug)}`, noindex: true },
    html`<section class="card tombstone">
<h1>Held for review</h1>
<p>${HELD_STORY_TEXT}</p>
<p><a href="/">See the newest stories</a></p>
</section>`,
  );
}
