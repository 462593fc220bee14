// The queue of one in front of sharp: tasks never overlap, run in arrival order, and a refused
// task does not stop the next.
import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../../src/app/images/one-at-a-time.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

describe('oneAtATime', () => {
  it('runs one task at a time, in arrival order, and a rejected task lets the next run', async () => {
    const serial = oneAtATime();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number, fail = false) =>
      serial(async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        order.push(n);
        running -= 1;
        if (fail) throw new Error(`task ${n} refused`);
        return n;
      });
    const results = await Promise.allSettled([task(1), task(2, true), task(3), task(4), task(5)]);
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });
});
