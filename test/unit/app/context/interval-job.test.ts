import { describe, expect, it } from 'vitest';
import { startIntervalJob } from '../../../../src/app/context/interval-job.ts';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a job npm start runs every interval', () => {
  it('runs at once, never overlaps itself, and stop() waits for the run in progress', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const job = startIntervalJob(5, async () => {
      runs += 1;
      active += 1;
      most = Math.max(most, active);
      await wait(40);
      active -= 1;
      finished += 1;
    });
    expect(runs).toBe(1);
    await wait(100);
    await job.stop();
    expect(most).toBe(1);
    expect(finished).toBe(runs);
    const after = runs;
    await wait(30);
    expect(runs).toBe(after);
  });

  it('tells a looping run that stop() was called', async () => {
    let loops = 0;
    const job = startIntervalJob(1_000, async (stopped) => {
      while (!stopped() && loops < 10_000) {
        loops += 1;
        await wait(1);
      }
    });
    await wait(20);
    await job.stop();
    expect(loops).toBeGreaterThan(0);
    expect(loops).toBeLessThan(10_000);
  });
});
