// (a, continued) The process dies between the business write and the idempotency record.
// A child process makes the write and is SIGKILLed at the chosen point (die-mid-write.ts); the
// parent then reads what was left and retries the same request, as a client would.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { opKey } from '../../src/store/keys.ts';
import type { DeathOrder, DeathPoint } from './die-mid-write.ts';
import { BENCH_CALLER, type IdempotencyBench, readCounter } from './idempotent-write.ts';
import { newWrite, recordKey } from './logical-write.ts';
import { lorebookCreateAndCount } from './lorebook-write.ts';
import { createIdempotencyTable, type LambdaContextLike, powertoolsCreateAndCount } from './powertools-write.ts';

const CHILD = fileURLToPath(new URL('./die-mid-write.ts', import.meta.url));
const CHILD_TIMEOUT_MS = 30_000;

export interface DeathScenario {
  system: 'lorebook' | 'powertools';
  point: DeathPoint;
  label: string;
  lambdaRemainingMs?: number;
  expiresAfterSeconds?: number;
  conditioned?: boolean;
}

export const DEATH_SCENARIOS: DeathScenario[] = [
  { system: 'lorebook', point: 'after-write', label: 'lorebook: dies right after its transaction committed, before answering' },
  { system: 'lorebook', point: 'before-write', label: 'lorebook: dies after its read, before the transaction' },
  {
    system: 'powertools',
    point: 'after-write',
    lambdaRemainingMs: 1000,
    label: 'Powertools in Lambda (1 s left): dies after the business write, before the COMPLETED update',
  },
  {
    system: 'powertools',
    point: 'after-write',
    expiresAfterSeconds: 2,
    label: 'Powertools without a Lambda context (records kept 2 s here instead of 24 h): the same death',
  },
  {
    system: 'powertools',
    point: 'after-write',
    lambdaRemainingMs: 1000,
    conditioned: true,
    label: "Powertools in Lambda, business write conditioned like lorebook's (create once): the same death",
  },
  {
    system: 'powertools',
    point: 'before-write',
    lambdaRemainingMs: 1000,
    label: 'Powertools in Lambda: dies after storing INPROGRESS, before the business write',
  },
];

export interface DeathOutcome {
  scenario: DeathScenario;
  /** What the dead process left in DynamoDB. */
  left: string;
  /** The same request sent again at once. */
  retryAtOnce: string;
  /** For Powertools, sent again once its in-progress window or record expiry passed. */
  retryLater?: string;
  /** Business writes applied in the end (1 is right; 2 is a double apply). */
  applied: number;
  /** Whether the client ever got its answer. */
  answered: boolean;
}

export async function runDeath(
  bench: IdempotencyBench,
  endpoint: string,
  scenario: DeathScenario,
  tableSuffix: string,
): Promise<DeathOutcome> {
  const idempotencyTable = `bench-death-idempotency-${tableSuffix}`;
  await createIdempotencyTable(bench.powertools.client, idempotencyTable);
  const input = newWrite(`death-${scenario.system}`);
  const before = await readCounter(bench.ctx, scenario.system);

  await dieAt({
    system: scenario.system,
    point: scenario.point,
    endpoint,
    itemsTable: bench.ctx.store.tableName,
    idempotencyTable,
    input,
    ...(scenario.lambdaRemainingMs === undefined ? {} : { lambdaRemainingMs: scenario.lambdaRemainingMs }),
    ...(scenario.expiresAfterSeconds === undefined ? {} : { expiresAfterSeconds: scenario.expiresAfterSeconds }),
    ...(scenario.conditioned === undefined ? {} : { conditioned: scenario.conditioned }),
  });

  const applied = async (): Promise<number> => (await readCounter(bench.ctx, scenario.system)) - before;
  const recordLeft = (await readItem(bench, recordKey(input.id))) !== undefined;
  if (scenario.system === 'lorebook') {
    const opLeft = (await readItem(bench, opKey(BENCH_CALLER.account, input.op_id))) !== undefined;
    const left = `record ${yes(recordLeft)}, counter +${await applied()}, op record ${yes(opLeft)}`;
    const retry = await attempt(() => lorebookCreateAndCount(bench.ctx, BENCH_CALLER, input));
    return { scenario, left, retryAtOnce: retry.text, applied: await applied(), answered: retry.answered };
  }

  const status = await idempotencyStatus(bench, idempotencyTable);
  const left = `record ${yes(recordLeft)}, counter +${await applied()}, idempotency record ${status}`;
  const powertools = powertoolsCreateAndCount({
    endpoint,
    itemsTable: bench.ctx.store.tableName,
    idempotencyTable,
    ...(scenario.expiresAfterSeconds === undefined ? {} : { expiresAfterSeconds: scenario.expiresAfterSeconds }),
    ...(scenario.conditioned === undefined ? {} : { conditioned: scenario.conditioned }),
  });
  try {
    const context = (): LambdaContextLike | undefined =>
      scenario.lambdaRemainingMs === undefined ? undefined : { getRemainingTimeInMillis: () => 30_000 };
    const now = await attempt(() => powertools.call(input, context()));
    let later: { text: string; answered: boolean } | undefined;
    if (!now.answered) {
      // Past the in-progress window (Lambda: the remaining time; otherwise the record's expiry).
      const waitMs = scenario.lambdaRemainingMs ?? (scenario.expiresAfterSeconds ?? 0) * 1000 + 1000;
      await new Promise((resolve) => setTimeout(resolve, waitMs + 300));
      later = await attempt(() => powertools.call(input, context()));
    }
    return {
      scenario,
      left,
      retryAtOnce: now.text,
      ...(later === undefined ? {} : { retryLater: later.text }),
      applied: await applied(),
      answered: now.answered || (later?.answered ?? false),
    };
  } finally {
    powertools.destroy();
  }
}

/** Runs the write in a child process and SIGKILLs it at the death point. */
async function dieAt(order: DeathOrder): Promise<void> {
  const child = fork(CHILD, [JSON.stringify(order)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const outcome = await new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), CHILD_TIMEOUT_MS);
    child.on('message', (message: { reached?: boolean; finished?: boolean }) => {
      clearTimeout(timer);
      resolve(message.reached === true ? 'reached' : 'finished');
    });
    child.once('exit', () => resolve('exited'));
  });
  child.kill('SIGKILL');
  await exited;
  if (outcome !== 'reached') throw new Error(`the ${order.system} child did not reach ${order.point} (${outcome})`);
}

async function attempt(call: () => Promise<unknown>): Promise<{ text: string; answered: boolean }> {
  try {
    const answer = (await call()) as { replayed?: boolean };
    return { text: answer.replayed === true ? 'the stored answer (replayed)' : 'answered (the write ran now)', answered: true };
  } catch (error) {
    return { text: `refused: ${(error as { name?: string }).name ?? 'Error'}`, answered: false };
  }
}

async function readItem(bench: IdempotencyBench, key: { PK: string; SK: string }): Promise<Record<string, unknown> | undefined> {
  const output = await bench.ctx.store.client.send(
    new GetCommand({ TableName: bench.ctx.store.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item;
}

async function idempotencyStatus(bench: IdempotencyBench, table: string): Promise<string> {
  const output = await bench.powertools.client.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  const item = output.Items?.[0];
  if (item === undefined) return 'absent';
  const record = unmarshall(item) as { status?: string; in_progress_expiration?: number };
  return record.in_progress_expiration === undefined
    ? `${record.status} (no in-progress expiry)`
    : `${record.status} (in-progress expiry set)`;
}

const yes = (present: boolean): string => (present ? 'present' : 'absent');
