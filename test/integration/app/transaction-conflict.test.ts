// The TransactionConflict path (docs/design.md#write-rules): re-plan from a fresh read after a jittered wait, a
// bounded number of times, then a retryable `conflict`. DynamoDB Local never produces the error,
// so it is injected (see inject-transaction-conflict.ts); the writes themselves are real.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { injectTransactionConflicts } from '../../helpers/inject-transaction-conflict.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('transaction-conflict', { maxWriteAttempts: 4, conflictBackoffMs: 1 });
const alice = caller('alice');

describe('a TransactionConflict is retried, bounded, and never applied twice', () => {
  it('after two injected conflicts the publish lands once, having waited before each re-plan', async () => {
    const waits: number[] = [];
    const ctx = { ...app.ctx(), sleep: async (ms: number) => void waits.push(ms), random: () => 0.5 };
    const faults = injectTransactionConflicts(ctx.store.client, 2);
    try {
      const answer = await publishStory(ctx, alice, { markdown: storyTitled('Conflicted twice'), op_id: 'op-conflicted' });
      expect(answer.revision).toBe(1);
      expect(faults.injected()).toBe(2);
      expect(waits).toHaveLength(2);
      expect(waits[1]).toBeGreaterThan(waits[0]!);
      const items = (await app.state()).filter((item) => item.PK === `STORY#${answer.slug}`);
      expect(items.map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001']);
    } finally {
      faults.remove();
    }
  });

  it('a snapshot read that meets a transaction in flight is read again after a wait, then lands once', async () => {
    const waits: number[] = [];
    const ctx = { ...app.ctx(), sleep: async (ms: number) => void waits.push(ms), random: () => 0.5 };
    const faults = injectTransactionConflicts(ctx.store.client, 2, 'TransactGet');
    try {
      const answer = await publishStory(ctx, alice, { markdown: storyTitled('Read conflicted twice') });
      expect(answer.revision).toBe(1);
      expect(faults.injected()).toBe(2);
      expect(waits).toHaveLength(2);
    } finally {
      faults.remove();
    }
  });

  it('when conflicts never stop, the caller gets a retryable conflict with retry_after_ms and nothing is written', async () => {
    const ctx = { ...app.ctx(), sleep: async () => {} };
    const faults = injectTransactionConflicts(ctx.store.client, 1_000);
    const before = await app.allItems();
    try {
      const error = await refusal(publishStory(ctx, alice, { markdown: storyTitled('Always conflicted'), op_id: 'op-always' }));
      expect(error.code).toBe('conflict');
      expect(error.retryable).toBe(true);
      expect(error.retryAfterMs).toBeGreaterThan(0);
      expect(faults.injected()).toBe(4);
      expect(await app.allItems()).toEqual(before);
    } finally {
      faults.remove();
    }
  });
});

describe('a throttled transaction is store trouble, not a conflict', () => {
  it('a transaction cancelled with ThrottlingError answers a retryable store_unavailable and writes nothing', async () => {
    const ctx = { ...app.ctx(), sleep: async () => {} };
    const faults = injectTransactionConflicts(ctx.store.client, 1, 'TransactWrite', 'ThrottlingError');
    const before = await app.allItems();
    try {
      const error = await refusal(publishStory(ctx, alice, { markdown: storyTitled('Throttled'), op_id: 'op-throttled' }));
      expect(error.code).toBe('store_unavailable');
      expect(error.retryable).toBe(true);
      expect(error.retryAfterMs).toBeGreaterThan(0);
      expect(faults.injected()).toBe(1);
      expect(await app.allItems()).toEqual(before);
    } finally {
      faults.remove();
    }
  });
});
