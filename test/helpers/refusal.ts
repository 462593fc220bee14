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
