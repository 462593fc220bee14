// The process-wide cap on outbound fetches (design.md#admission): at most `concurrency` exchanges run at
// once, a bounded line waits and is served in order, and past the line a fetch is refused at once.
import { describe, expect, it } from 'vitest';
import { createFetchSlots, FetchSlotsFull } from '../../../../integrations/safe-fetch/fetch-slots.ts';

/** An exchange that runs until the test lets it finish. */
function held(): { exchange: () => Promise<string>; started: () => boolean; finish: (value: string) => void } {
  let started = false;
  let finish: (value: string) => void = () => {};
  const done = new Promise<string>((resolve) => (finish = resolve));
  return {
    exchange: () => {
      started = true;
      return done;
    },
    started: () => started,
    finish: (value) => finish(value),
  };
}

describe('outbound fetch slots', () => {
  it('runs at most `concurrency` exchanges at once; a waiting one starts when a slot frees, and past the line one is refused', async () => {
    const slots = createFetchSlots(2, 1);
    const [a, b, c] = [held(), held(), held()];
    const running = [slots.run(a.exchange), slots.run(b.exchange), slots.run(c.exchange)];
    await Promise.resolve();
    expect([a.started(), b.started(), c.started()]).toEqual([true, true, false]);
    await expect(slots.run(async () => 'never')).rejects.toBeInstanceOf(FetchSlotsFull);
    a.finish('a');
    await running[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(c.started()).toBe(true);
    b.finish('b');
    c.finish('c');
    expect(await Promise.all(running)).toEqual(['a', 'b', 'c']);
  });

  it('a failed exchange frees its slot too', async () => {
    const slots = createFetchSlots(1, 0);
    await expect(slots.run(() => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
