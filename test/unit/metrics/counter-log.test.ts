// npm start's counter line (src/metrics/counter-log.ts), on fake timers: one line per interval
// with what moved since the line before, and nothing at all from an idle server.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCounterLog } from '../../../src/metrics/counter-log.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the counter log', () => {
  it('writes one line per interval with the counts since the last line, and none while nothing moves', () => {
    const lines: string[] = [];
    const metrics = startCounterLog({ intervalMs: 60_000, log: (line) => void lines.push(line) });
    vi.advanceTimersByTime(180_000);
    expect(lines).toEqual([]);

    metrics.count('Requests', { Surface: 'mcp', StatusClass: '2xx' });
    metrics.count('Requests', { Surface: 'mcp', StatusClass: '2xx' });
    metrics.count('Publishes');
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['lorebook: metrics, last 60 s: Publishes=1 Requests{Surface=mcp,StatusClass=2xx}=2']);

    vi.advanceTimersByTime(120_000);
    metrics.count('Refusals', { Code: 'rate_limited' });
    metrics.stop();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('lorebook: metrics, last 60 s: Refusals{Code=rate_limited}=1');
  });
});
