// Polls a probe until it answers something, or fails after `withinMs`: for side effects that land
// after the call that caused them (a dispatcher run started after the commit). Bounded by the
// deadline, and polite to a loaded machine (one probe at a time, a pause between probes).
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, withinMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
