// What crosses between `npm start`'s main thread and its search index thread
// (search-index-in-thread.ts, search-index-thread.ts): questions with an id and their answers,
// notices that need none (a story this process wrote, a reload), and the index's log lines.
import type { IndexAnswers } from '../app/search/index-answers.ts';
import type { WorkerError } from '../offload/worker-messages.ts';

export type IndexQuestion = {
  [Name in 'rank' | 'suggest' | 'similar' | 'completeSlug']: { id: number; ask: Name; args: Parameters<IndexAnswers[Name]> };
}['rank' | 'suggest' | 'similar' | 'completeSlug'];

export type IndexNotice = { touch: string } | { forget: true };

export type IndexThreadMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WorkerError } | { log: string };
