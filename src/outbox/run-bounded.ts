// Runs tasks with at most `concurrency` in flight: a fan-out of hundreds of conditional writes
// finishes in a few dozen round trips of wall time without opening hundreds of sockets at once.
// The first failure stops new tasks from starting and is thrown once the running ones settle.
export async function runBounded<T, R>(inputs: readonly T[], concurrency: number, task: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(inputs.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < inputs.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await task(inputs[index] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
