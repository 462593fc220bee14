// Independent set-up steps run a few at a time: each waits mostly on DynamoDB Local, so one after
// the other spends the test's time waiting on round trips.

/** Runs `step(0)` .. `step(count - 1)`, at most `width` at once; rejects with the first failure. */
export async function inParallel(count: number, width: number, step: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await step(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}
