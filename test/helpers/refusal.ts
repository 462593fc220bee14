// Awaits a call that must be refused and returns its typed error (fails the test otherwise).
import { expect } from 'vitest';
import { LorebookError } from '../../src/domain/errors.ts';

export async function refusal(promise: Promise<unknown>): Promise<LorebookError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LorebookError);
  return error as LorebookError;
}

/** The same for a synchronous call: runs `run`, which must throw a LorebookError, and returns it. */
export function thrownRefusal(run: () => unknown): LorebookError {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error, `expected a refusal, got ${String(error)}`).toBeInstanceOf(LorebookError);
  return error as LorebookError;
}
