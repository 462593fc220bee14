// `npm start`'s search index thread (search-index-in-thread.ts starts it): it holds the instance's
// live index with a store client of its own and answers each question the main thread asks, so
// loading, refreshing, ranking and collecting a whole index never hold the event loop that
// serves requests (docs/design.md#search). Questions are answered in the order they come; a
// touch sent before a question is applied before it is answered.
import { parentPort, workerData } from 'node:worker_threads';
import { localIndexAnswers } from '../app/search/local-index-answers.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { compactHeap, heapBytes } from '../offload/compact-heap.ts';
import { compactWhenIdle } from '../offload/compact-when-idle.ts';
import { errorForMain } from '../offload/worker-messages.ts';
import type { IndexNotice, IndexQuestion, IndexThreadMessage } from './search-index-messages.ts';

const port = parentPort;
if (port === null) throw new Error('search-index-thread.ts runs as a worker thread');
const post = (message: IndexThreadMessage): void => port.postMessage(message);

const { config, endpoint } = workerData as { config: Config; endpoint: string | undefined };
const ctx = buildContext(config, endpoint);
const answers = localIndexAnswers(ctx, {
  snapshots: ctx.searchSnapshots,
  refreshMs: config.http.searchRefreshMs,
  now: Date.now,
  log: (line) => post({ log: line }),
});

function answer(question: IndexQuestion): Promise<unknown> {
  switch (question.ask) {
    case 'rank':
      return answers.rank(...question.args);
    case 'suggest':
      return answers.suggest(...question.args);
    case 'similar':
      return answers.similar(...question.args);
    case 'completeSlug':
      return answers.completeSlug(...question.args);
  }
}

// A burst of questions leaves garbage the thread's heap keeps (compact-when-idle.ts): given back
// once the thread has had none for a while.
const compaction = compactWhenIdle({
  idleMs: 2000,
  growthBytes: 16 * 1024 * 1024,
  heapBytes,
  compact: () => compactHeap()?.afterBytes,
});

port.on('message', (message: IndexQuestion | IndexNotice) => {
  compaction.busy();
  if ('touch' in message) return answers.touch(message.touch);
  if ('forget' in message) return answers.forget();
  answer(message).then(
    (value) => post({ id: message.id, ok: true, value }),
    (error: unknown) => post({ id: message.id, ok: false, error: errorForMain(error) }),
  );
});
