// Account deletion under a crash at every store step (design.md#account-deletion): the request and every bounded
// step after it, a fault before each store call reaches the server and after each one applied
// with its response lost; then the retry (the request again, the steps run on to the end) must
// leave the table item for item as one clean deletion does. The clock is fixed, so timestamps
// compare too: a step that ran twice and wrote a second item would show.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/app/account/accounts.ts';
import { deleteAccount } from '../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../src/app/account/run-account-deletions.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportCheck } from '../../src/app/report-check.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { isLorebookError } from '../../src/domain/errors.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { caller, WITHOUT_SPAM_WAVE_CHECK } from '../helpers/app-fixture.ts';
import { type FaultMoment, injectStoreFault } from '../helpers/inject-store-fault.ts';
import { operationName } from '../helpers/round-trips.ts';
import { storyTitled } from '../helpers/stories.ts';
import { createTestTable, testEndpoint } from '../helpers/test-table.ts';

const alice = caller('alice');
const bob = caller('bob');
const SETUP = Math.floor(Date.now() / 1000) * 1000;

interface Run {
  items: Record<string, unknown>[];
  steps: string[];
}

async function onFreshTable(body: (ctx: AppContext) => Promise<string[]>): Promise<Run> {
  const table = await createTestTable('crash-account-deletion');
  const client = createStoreClient({ endpoint: testEndpoint() });
  const ctx: AppContext = {
    store: { client, tableName: table.tableName, now: () => SETUP },
    // No write races these deletions: the finish need not wait for the grace.
    config: { ...DEFAULT_APP_CONFIG, ...WITHOUT_SPAM_WAVE_CHECK, accountDeletionGraceSeconds: 0 },
    sleep: async () => {},
    random: () => 0.5,
  };
  try {
    await ensureAccount(ctx, alice);
    await ensureAccount(ctx, bob);
    const mine = (await publishStory(ctx, alice, { markdown: storyTitled('Alice crashes out') })).slug;
    const bobs = (await publishStory(ctx, bob, { markdown: storyTitled('Bob stays') })).slug;
    await reportReproduction(ctx, alice, { slug: bobs, result: 'worked' });
    await reportCheck(ctx, alice, { slug: bobs, result: 'no_problem' });
    await reportReproduction(ctx, bob, { slug: mine, result: 'failed' });
    const steps = await body(ctx);
    return { items: await scanAll(table.client, table.tableName), steps };
  } finally {
    client.destroy();
    await table.drop();
  }
}

/** The request, then the steps to the end: what the person and the background do together. */
async function deletion(ctx: AppContext): Promise<void> {
  await deleteAccount(ctx, alice, { confirm: alice.handle });
  await deleteAccountSteps(ctx, alice.account, 1_000);
}

function recordSteps(ctx: AppContext): { steps: string[]; stop(): void } {
  const steps: string[] = [];
  const name = `accountDeletionSteps${Math.random().toString(36).slice(2)}`;
  ctx.store.client.middlewareStack.add(
    (next, context) => async (args) => {
      steps.push(operationName(String(context.commandName)));
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );
  return { steps, stop: () => ctx.store.client.middlewareStack.remove(name) };
}

async function scanAll(client: ReturnType<typeof createStoreClient>, tableName: string): Promise<Record<string, unknown>[]> {
  const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  const items = (page.Items ?? []).map(
    (item) =>
      JSON.parse(JSON.stringify(item, (_k, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)].map(String).sort() : v))) as Record<
        string,
        unknown
      >,
  );
  const key = (item: Record<string, unknown>): string => `${String(item.PK)}\u0000${String(item.SK)}`;
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

describe('account deletion survives a crash at every store step', async () => {
  const clean = await onFreshTable(async (ctx) => {
    const recorder = recordSteps(ctx);
    await deletion(ctx);
    recorder.stop();
    return recorder.steps;
  });
  console.log(`one clean deletion: ${clean.steps.length} store calls: ${clean.steps.join(' ')}`);

  it('the clean deletion leaves only the tombstones and bob', () => {
    expect(clean.items.filter((item) => JSON.stringify(item).includes(alice.account)).map((item) => `${item.PK}/${item.SK}`)).toEqual([
      `ACCOUNT#${alice.account}/META`,
      // bob's notification that alice reproduced his story (kept, design.md#account-deletion)
      expect.stringMatching(/^INBOX#acct-bob\/N#/),
    ]);
  });

  const moments: FaultMoment[] = ['before', 'response-lost'];
  for (let call = 0; call < clean.steps.length; call += 1) {
    for (const moment of moments) {
      it(`a fault ${moment} call ${call} (${clean.steps[call]}), then the retry, ends as one clean deletion`, async () => {
        const run = await onFreshTable(async (ctx) => {
          const fault = injectStoreFault(ctx.store.client, { call, moment });
          await deletion(ctx).catch(() => undefined);
          fault.remove();
          expect(fault.firedOn()).toBeDefined();
          // The person's retry once the deletion is finished is refused like any call of a deleted account.
          await deleteAccount(ctx, alice, { confirm: alice.handle }).catch((error: unknown) => {
            if (!isLorebookError(error) || error.code !== 'unauthenticated') throw error;
          });
          await deleteAccountSteps(ctx, alice.account, 1_000);
          return [];
        });
        expect(run.items).toEqual(clean.items);
      });
    }
  }
});
