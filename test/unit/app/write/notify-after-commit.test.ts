// When an edit asks for a dispatcher run: only after a commit that wrote a correction's outbox
// event. A replay committed nothing; an edit that tells nobody wrote no event.
import { describe, expect, it } from 'vitest';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../../../src/app/context/app-context.ts';
import { notifyAfterCommit } from '../../../../src/app/write/notify-after-commit.ts';

function contextCountingRuns(): { ctx: AppContext; runs: () => number } {
  let runs = 0;
  const ctx = {
    config: DEFAULT_APP_CONFIG,
    dispatchSoon: () => {
      runs += 1;
    },
  } as unknown as AppContext;
  return { ctx, runs: () => runs };
}

describe('an edit starts a dispatcher run only for an outbox event it committed', () => {
  it('a correction that tells reproducers starts one run and answers unchanged', () => {
    const { ctx, runs } = contextCountingRuns();
    const outcome = { slug: 's', notified: 3 };
    expect(notifyAfterCommit(ctx, outcome)).toBe(outcome);
    expect(runs()).toBe(1);
  });

  it('an edit that tells nobody, and an op_id replay of one that told three, start none', () => {
    const { ctx, runs } = contextCountingRuns();
    notifyAfterCommit(ctx, { notified: 0 });
    notifyAfterCommit(ctx, { notified: 3, replayed: true as const });
    expect(runs()).toBe(0);
  });

  it('without a dispatcher (the cloud: the table stream delivers) nothing is called and nothing throws', () => {
    const ctx = { config: DEFAULT_APP_CONFIG } as unknown as AppContext;
    expect(notifyAfterCommit(ctx, { notified: 2 })).toEqual({ notified: 2 });
  });
});
