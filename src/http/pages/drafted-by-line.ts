// The story page's credit for a story someone drafted for its author (docs/pages.md): get_story's
// `drafted_by`, beside the author.
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import type { Html } from './layout.ts';
import { authorPath } from './page-format.ts';

export function draftedByLine(story: StoryView): Html | string {
  const drafter = story.drafted_by;
  if (drafter === undefined) return '';
  return html`<span class="drafted-by">drafted with help from <a href="${authorPath(drafter.handle)}">@${drafter.handle}</a></span>`;
}
