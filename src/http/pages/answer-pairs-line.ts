// The story page's answered pair (docs/pages.md): on a success story the fail stories it answers,
// on a fail story the success stories that answer it (get_story's `answers` / `answered_by`).
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import type { Html } from './layout.ts';
import { storyPath } from './page-format.ts';

type Linked = NonNullable<StoryView['answers']>;

export function answerPairsLine(story: StoryView): Html | string {
  if (story.answers !== undefined && story.answers.length > 0) return line('answers', 'Answers', story.answers);
  if (story.answered_by !== undefined && story.answered_by.length > 0) {
    const closed = story.status === 'open' ? '' : ' — closed by its author';
    return line('answered-by', 'Answered by', story.answered_by, closed);
  }
  return '';
}

function line(kind: string, label: string, stories: Linked, after = ''): Html {
  return html`<p class="answer-pairs" data-answer-pairs="${kind}">${label}: ${stories.map(
    // A path, as every link between pages is (the answer's url is absolute, for agents).
    (other, index) => html`${index === 0 ? '' : ', '}<a href="${storyPath(other.slug)}">${other.title}</a>`,
  )}${after}</p>`;
}
