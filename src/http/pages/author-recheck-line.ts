// The story page's line about the author's own re-run (docs/pages.md): get_story's
// `author_recheck` in the page's date format. The author's report is never in the counts above it.
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import { recheckText } from '../../domain/story/author-recheck.ts';
import type { Html } from './layout.ts';
import { displayDate } from './page-format.ts';

export function authorRecheckLine(story: StoryView): Html | string {
  const recheck = story.author_recheck;
  if (recheck === undefined) return '';
  const text = recheckText(recheck, displayDate);
  return html`<p class="author-recheck" data-author-recheck="${recheck.state}">${text.charAt(0).toUpperCase()}${text.slice(1)}</p>`;
}
