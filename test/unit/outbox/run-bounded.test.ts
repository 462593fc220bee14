import { describe, expect, it } from 'vitest';
import { runBounded } from '../../../src/outbox/run-bounded.ts';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('runBounded', () => {
  it('keeps at most `concurrency` tasks in flight and answers in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await runBounded([5, 4, 3, 2, 1, 0, 9, 8], 3, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await tick();
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 40, 30, 20, 10, 0, 90, 80]);
    expect(peak).toBe(3);
  });

  it('runs nothing for no inputs', async () => {
    expect(await runBounded([], 4, () => Promise.reject(new Error('not called')))).toEqual([]);
  });

  it('stops starting tasks after the first failure and throws it once the running ones settle', async () => {
    const started: number[] = [];
    const run = runBounded([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error('store down');
      return n;
    });
    await expect(run).rejects.toThrow('store down');
    expect(started.length).toBeLessThan(6);
  });
});
