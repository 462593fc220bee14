// A ban and its unban under a crash at every store step (design.md#bans): a fault before each store
// call reaches the server and after each one applied with its response lost; then the operator
// runs both commands again with the same op ids, and the table must hold, item for item, what
// one clean ban and unban leave. The clock is fixed, so timestamps compare too: a count moved
// twice, or a second audit record, would show. The history is written once and copied onto each
// fresh table, so each case costs a table, not a history.
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/app/account/accounts.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { flagStory } from '../../src/app/flag-story.ts';
import { banAccount, unbanAccount } from '../../src/app/moderation/ban/account.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportCheck } from '../../src/app/report-check.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { recordBlueskySignIn } from '../../src/app/sign-in/bluesky-sign-in.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { caller, WITHOUT_SPAM_WAVE_CHECK } from '../helpers/app-fixture.ts';
import { type FaultMoment, injectStoreFault } from '../helpers/inject-store-fault.ts';
import { operationName } from '../helpers/round-trips.ts';
import { storyTitled } from '../helpers/stories.ts';
import { createTestTable, testEndpoint } from '../helpers/test-table.ts';

const alice = { account: 'did:plc:crashban', handle: 'alice.test' };
const bob = caller('bob');
const DAY_MS = 24 * 60 * 60 * 1000;
const SETUP = Math.floor(Date.now() / 1000) * 1000;
const command = { target: alice.handle, reason: 'Spam.', actor: 'operator:test' };

type Item = Record<string, unknown>;

function contextOn(tableName: string, client: ReturnType<typeof createStoreClient>, now: number): AppContext {
  return {
    store: { client, tableName, now: () => now },
    config: { ...DEFAULT_APP_CONFIG, ...WITHOUT_SPAM_WAVE_CHECK, accountDeletionGraceSeconds: 0 },
    sleep: async () => {},
    random: () => 0.5,
  };
}

/** alice reproduced, checked and flagged bob's story and wrote one of her own, which bob reproduced. */
async function writeHistory(): Promise<Item[]> {
  const table = await createTestTable('crash-ban-history');
  const client = createStoreClient({ endpoint: testEndpoint() });
  let now = SETUP;
  const ctx = contextOn(table.tableName, client, SETUP);
  ctx.store.now = () => now;
  try {
    await recordBlueskySignIn(ctx, { did: alice.account, handle: alice.handle });
    await ensureAccount(ctx, bob);
    now += DAY_MS;
    const bobs = (await publishStory(ctx, bob, { markdown: storyTitled('Bob stays') })).slug;
    const hers = (await publishStory(ctx, { account: alice.account, handle: alice.handle }, { markdown: storyTitled('Alice is banned') }))
      .slug;
    await reportReproduction(ctx, alice, { slug: bobs, result: 'worked' });
    await reportCheck(ctx, alice, { slug: bobs, result: 'no_problem' });
    await flagStory(ctx, alice, { slug: bobs, reason: 'spam' });
    await reportReproduction(ctx, bob, { slug: hers, result: 'failed' });
    const page = await client.send(new ScanCommand({ TableName: table.tableName, ConsistentRead: true }));
    return (page.Items ?? []) as Item[];
  } finally {
    client.destroy();
    await table.drop();
  }
}

async function onCopy(history: Item[], body: (ctx: AppContext) => Promise<string[]>): Promise<{ items: Item[]; steps: string[] }> {
  const table = await createTestTable('crash-ban');
  const client = createStoreClient({ endpoint: testEndpoint() });
  try {
    for (let start = 0; start < history.length; start += 25) {
      const page = history.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
      await client.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: page } }));
    }
    const steps = await body(contextOn(table.tableName, client, SETUP + 2 * DAY_MS));
    return { items: await scanAll(client, table.tableName), steps };
  } finally {
    client.destroy();
    await table.drop();
  }
}

/** Both commands, each with its op id: what the operator runs (again). */
async function banThenUnban(ctx: AppContext): Promise<void> {
  await banAccount(ctx, { ...command, op_id: 'op-ban' });
  await unbanAccount(ctx, { ...command, op_id: 'op-unban', reason: 'Appeal accepted.' });
}

async function scanAll(client: ReturnType<typeof createStoreClient>, tableName: string): Promise<Item[]> {
  const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  return normalised((page.Items ?? []) as Item[]);
}

/** Sets as sorted arrays, items sorted by key: two tables' items compare with toEqual. */
function normalised(raw: Item[]): Item[] {
  const items = raw.map(
    (item) =>
      JSON.parse(JSON.stringify(item, (_k, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)].map(String).sort() : v))) as Item,
  );
  const key = (item: Item): string => `${String(item.PK)}\u0000${String(item.SK)}`;
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

function recordSteps(ctx: AppContext): { steps: string[]; stop(): void } {
  const steps: string[] = [];
  const name = `banSteps${Math.random().toString(36).slice(2)}`;
  ctx.store.client.middlewareStack.add(
    (next, context) => async (args) => {
      steps.push(operationName(String(context.commandName)));
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );
  return { steps, stop: () => ctx.store.client.middlewareStack.remove(name) };
}

describe('a ban and its unban survive a crash at every store step', async () => {
  const history = await writeHistory();
  const clean = await onCopy(history, async (ctx) => {
    const recorder = recordSteps(ctx);
    await banThenUnban(ctx);
    recorder.stop();
    return recorder.steps;
  });
  console.log(`one clean ban and unban: ${clean.steps.length} store calls: ${clean.steps.join(' ')}`);

  it('the clean ban and unban leave the counts as they were, with two audit records each', () => {
    const meta = (items: Item[]) => items.filter((item) => item.SK === 'META' && String(item.PK).startsWith('STORY#'));
    const withoutDue = (items: Item[]) => meta(items).map(({ GSI3SK: _due, ...rest }) => rest);
    expect(withoutDue(clean.items)).toEqual(withoutDue(normalised(history)));
    expect(clean.items.filter((item) => item.action !== undefined).map((item) => `${item.PK} ${item.action}`)).toEqual([
      `ACCOUNT#${alice.account} ban`,
      `ACCOUNT#${alice.account} unban`,
      'MODLOG ban',
      'MODLOG unban',
    ]);
  });

  const moments: FaultMoment[] = ['before', 'response-lost'];
  for (let call = 0; call < clean.steps.length; call += 1) {
    for (const moment of moments) {
      it(`a fault ${moment} call ${call} (${clean.steps[call]}), then both commands again, ends as one clean ban and unban`, async () => {
        const run = await onCopy(history, async (ctx) => {
          const fault = injectStoreFault(ctx.store.client, { call, moment });
          await banThenUnban(ctx).catch(() => undefined);
          fault.remove();
          expect(fault.firedOn()).toBeDefined();
          await banThenUnban(ctx);
          return [];
        });
        expect(run.items).toEqual(clean.items);
      });
    }
  }
});
