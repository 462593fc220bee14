// A story's plain text (its document's textContent) made on the offload worker: reading 64 KiB of
// markdown costs as much as parsing it for publish, and the announcer runs inside the server
// process, where the event loop must stay free for requests.
import { type CpuScope, runOffloaded } from '../app/context/offloaded.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../domain/story/story-limits.ts';
import { heavyText, type OffloadTask } from '../offload/offload.ts';

export const PLAIN_TEXT_TASK: OffloadTask<string, string> = {
  module: new URL('../domain/story/plain-text.ts', import.meta.url),
  name: 'storyPlainText',
  run: async (markdown) => (await import('../domain/story/plain-text.ts')).storyPlainText(markdown),
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
  heavy: (markdown) => heavyText(markdown),
};

/** On the context's workers when it has them (the process's own job there), else the process's. */
export const plainTextOffloaded = (markdown: string, scope?: CpuScope): Promise<string> => runOffloaded(scope, PLAIN_TEXT_TASK, markdown);
