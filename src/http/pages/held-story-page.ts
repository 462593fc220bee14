// A story held for review (docs/moderation.md): neither its title nor its text is shown — either
// may be what it was held for — only that it is held, and by whom (readers, an operator, a ban).
import { html } from 'hono/html';
import { type HeldBy, heldBecause } from '../../app/moderation/held-by.ts';
import { type Html, layout } from './layout.ts';
import { storyPath } from './page-format.ts';

export function heldStoryPage(slug: string, by: HeldBy, baseUrl: string): Html {
  return layout(
    { title: 'Held for review — lorebook', url: `${baseUrl}${storyPath(slug)}`, noindex: true },
    html`<section class="card tombstone">
<h1>Held for review</h1>
<p>${heldBecause(by)}</p>
<p><a href="/">See the newest stories</a></p>
</section>`,
  );
}
