// What crosses between the offload worker and the main thread. A LorebookError arrives as a
// LorebookError (structured clone would turn it into a plain Error and lose its code and details).
import { type ErrorBody, LorebookError } from '../domain/errors.ts';

export interface WorkerTask {
  id: number;
  module: string;
  name: string;
  input: unknown;
}

/** Sent to a fresh worker that replaces a recycled one: the task modules to import before its first task. */
export interface WorkerPreload {
  preload: string[];
}

/** What a worker is started with (its workerData). */
export interface WorkerSetup {
  /** The niceness the worker's thread lowers itself to; 0 keeps the niceness it started with. */
  niceness: number;
}

export type WorkerError = { lorebook: ErrorBody } | { message: string };

/** A task's outcome, with the worker's heap size after it (the main thread recycles a worker grown past its bound). */
export type WorkerAnswer = ({ id: number; ok: true; value: unknown } | { id: number; ok: false; error: WorkerError }) & {
  heapBytes: number;
};

/** What a worker says: a task's answer, or that its preload is done (loaded or failed). */
export type WorkerMessage = WorkerAnswer | { preloaded: true };

export function errorForMain(error: unknown): WorkerError {
  if (error instanceof LorebookError) return { lorebook: error.toBody() };
  return { message: error instanceof Error ? error.message : String(error) };
}

export function errorFromWorker(error: WorkerError): Error {
  if ('message' in error) return new Error(error.message);
  const { code, message, retryable, retry_after_ms: retryAfterMs, details } = error.lorebook;
  return new LorebookError(code, message, {
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(details === undefined ? {} : { details }),
  });
}
