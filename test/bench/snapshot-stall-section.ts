// Section 12 of `npm run bench`: snapshot-stall.ts in a child process with a time bound; it
// rewrites its own section of BENCHMARKS.md (--write), which the report then keeps as it stands.
import { runBenchScript } from './child-script.ts';

export const STALL_HEADING = '## 12. Event loop under the snapshot job';

export async function runSnapshotStallBench(quick: boolean, timeoutMs: number, log: (line: string) => void): Promise<void> {
  const outcome = await runBenchScript('snapshot-stall.ts', ['--write', ...(quick ? ['--sizes', '2000'] : [])], { timeoutMs, log });
  if (!outcome.ok) log(`  snapshot stall: ${outcome.failure ?? 'failed'} (section 12 kept as it was)`);
}
