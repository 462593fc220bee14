// What each caller has spent of this process's CPU-heavy slots (offload workers, the image
// re-encoder) in the current minute: a scan of hostile text costs seconds where an ordinary call
// costs milliseconds, so counting calls (context/rate-limit.ts) cannot bound what a caller costs. The
// cost is the time a job held its slot; a caller past its minute's allowance is refused before
// its next job queues. Per process, like the CPU it protects.
import { LorebookError } from '../domain/errors.ts';

export const CPU_WINDOW_MS = 60_000;
/** Callers remembered at once; past it the oldest window is forgotten (a stranger cannot grow the map). */
const MAX_CALLERS = 10_000;

export interface CpuAllowance {
  /** Slot milliseconds a minute for a signed-in account (caller keys `account:…`). */
  accountMsPerMinute: number;
  /** Slot milliseconds a minute for one address without a token (caller keys `ip:…`). */
  anonymousMsPerMinute: number;
}

export interface CpuWindows {
  /** `rate_limited` when the caller has spent its minute's allowance; undefined otherwise. */
  refusal(caller: string): LorebookError | undefined;
  /** Adds `ms` of slot time to the caller's current minute. */
  charge(caller: string, ms: number): void;
}

export function createCpuWindows(allowance: CpuAllowance, now: () => number = Date.now): CpuWindows {
  const spent = new Map<string, { window: number; ms: number }>();
  const allowanceOf = (caller: string): number =>
    caller.startsWith('ip:') ? allowance.anonymousMsPerMinute : allowance.accountMsPerMinute;
  const current = (caller: string): { window: number; ms: number } => {
    const window = Math.floor(now() / CPU_WINDOW_MS);
    const entry = spent.get(caller);
    return entry !== undefined && entry.window === window ? entry : { window, ms: 0 };
  };
  return {
    refusal(caller) {
      const { window, ms } = current(caller);
      const limit = allowanceOf(caller);
      if (ms < limit) return undefined;
      const retryAfterMs = (window + 1) * CPU_WINDOW_MS - now();
      return new LorebookError(
        'rate_limited',
        `Your calls used their ${limit} ms of CPU this minute. Nothing was done; send the same call again after retry_after_ms (${retryAfterMs} ms).`,
        { retryAfterMs, details: { reason: 'cpu_time', limit_ms: limit, window_seconds: CPU_WINDOW_MS / 1000 } },
      );
    },
    charge(caller, ms) {
      const entry = current(caller);
      spent.delete(caller);
      spent.set(caller, { window: entry.window, ms: entry.ms + ms });
      if (spent.size > MAX_CALLERS) spent.delete(spent.keys().next().value as string);
    },
  };
}
