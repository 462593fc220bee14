// `npm start`'s search index in a worker thread of its own (search-index-thread.ts): the main
// thread asks and hydrates, the thread loads, refreshes, ranks and collects the whole index, so
// no search and no snapshot load holds the event loop that serves requests (docs/design.md#search).
// The thread starts at the first question. One that dies (killed, out of memory) fails only the
// questions it held, with the retryable store_unavailable; the next question starts a new one,
// which loads the index afresh, as a cold start does.
import { Worker } from 'node:worker_threads';
import type { IndexAnswers } from '../app/search/index-answers.ts';
import type { Config } from '../config.ts';
import { LorebookError } from '../domain/errors.ts';
import { errorFromWorker } from '../offload/worker-messages.ts';
import type { IndexNotice, IndexQuestion, IndexThreadMessage } from './search-index-messages.ts';

const INDEX_THREAD = new URL('./search-index-thread.ts', import.meta.url);
const RETRY_AFTER_MS = 1000;

export interface IndexThreadOptions {
  log: (line: string) => void;
  /** Each thread once started: where a test kills one. */
  onStart?: (worker: Worker) => void;
}

export interface IndexInThread extends IndexAnswers {
  /** Ends the thread (the questions it held fail); the next question would start another. */
  close(): Promise<void>;
}

interface Running {
  worker: Worker;
  waiting: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
}

const threadStopped = (code: number): LorebookError =>
  new LorebookError(
    'store_unavailable',
    `The search index stopped (its thread ended with code ${code}) and is loading again. Nothing was changed: retry the same call after retry_after_ms.`,
    { retryAfterMs: RETRY_AFTER_MS },
  );

export function searchIndexInThread(config: Config, endpoint: string | undefined, options: IndexThreadOptions): IndexInThread {
  let running: Running | undefined;
  let nextId = 0;
  /** Stories this process wrote while no thread ran: the next one re-reads them before its first answer. */
  const touchedMeanwhile = new Set<string>();

  const start = (): Running => {
    const worker = new Worker(INDEX_THREAD, { workerData: { config, endpoint } });
    // The server keeps the process alive; the index thread must never keep it from ending.
    worker.unref();
    const started: Running = { worker, waiting: new Map() };
    worker.on('message', (message: IndexThreadMessage) => {
      if ('log' in message) return options.log(message.log);
      const waiting = started.waiting.get(message.id);
      started.waiting.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(errorFromWorker(message.error));
    });
    worker.on('error', (error) => options.log(`lorebook: the search index thread failed: ${error.message}`));
    worker.on('exit', (code) => {
      if (running === started) running = undefined;
      if (started.waiting.size > 0 || code !== 0)
        options.log(`lorebook: the search index thread ended (code ${code}); the next search starts another`);
      for (const waiting of started.waiting.values()) waiting.reject(threadStopped(code));
      started.waiting.clear();
    });
    for (const slug of touchedMeanwhile) worker.postMessage({ touch: slug } satisfies IndexNotice);
    touchedMeanwhile.clear();
    options.onStart?.(worker);
    return started;
  };

  const ask = <T>(question: Omit<IndexQuestion, 'id'>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      running ??= start();
      const id = nextId++;
      running.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      running.worker.postMessage({ ...question, id } as IndexQuestion);
    });

  const notify = (notice: IndexNotice): void => {
    if (running !== undefined) running.worker.postMessage(notice);
    // Without a thread there is no index to reload: the next one loads afresh anyway.
    else if ('touch' in notice) touchedMeanwhile.add(notice.touch);
  };

  return {
    rank: (query, offset, count) => ask({ ask: 'rank', args: [query, offset, count] }),
    suggest: (terms, count) => ask({ ask: 'suggest', args: [terms, count] }),
    similar: (query) => ask({ ask: 'similar', args: [query] }),
    completeSlug: (typed) => ask({ ask: 'completeSlug', args: [typed] }),
    touch: (slug) => notify({ touch: slug }),
    forget: () => notify({ forget: true }),
    async close() {
      await running?.worker.terminate();
    },
  };
}
