// Child process for the process-death simulation: makes one logical write with lorebook or with
// Powertools and, at the chosen point, tells the parent and waits to be killed (SIGKILL: no
// finally blocks, no cleanup, like a Lambda timeout or an OOM kill).
//   before-write  lorebook: the snapshot read is done, the transaction not sent.
//                 Powertools: the INPROGRESS record is stored, the business write not sent.
//   after-write   lorebook: the transaction committed (record, counter and op record together).
//                 Powertools: the business write committed, the COMPLETED update not sent.
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { operationName } from '../helpers/round-trips.ts';
import { BENCH_CALLER } from './idempotent-write.ts';
import type { LogicalWrite } from './logical-write.ts';
import { lorebookCreateAndCount } from './lorebook-write.ts';
import { type LambdaContextLike, powertoolsCreateAndCount, silenceLambdaContextWarning } from './powertools-write.ts';

silenceLambdaContextWarning();

export type DeathPoint = 'before-write' | 'after-write';

export interface DeathOrder {
  system: 'lorebook' | 'powertools';
  point: DeathPoint;
  endpoint: string;
  itemsTable: string;
  idempotencyTable: string;
  input: LogicalWrite;
  /** Powertools: the remaining Lambda time it records as the in-progress expiry; none = no context. */
  lambdaRemainingMs?: number;
  expiresAfterSeconds?: number;
  conditioned?: boolean;
}

const reached = async (): Promise<void> => {
  process.send?.({ reached: true });
  // Stay alive (a pending promise alone would let Node exit) until the parent's SIGKILL.
  setInterval(() => {}, 60_000);
  await new Promise(() => {});
};

const order = JSON.parse(process.argv[2] ?? '{}') as DeathOrder;

if (order.system === 'lorebook') {
  const client = createStoreClient({ endpoint: order.endpoint });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (operationName(String(context.commandName)) !== 'TransactWriteItems') return next(args);
      if (order.point === 'before-write') await reached();
      const output = await next(args);
      await reached();
      return output;
    },
    { step: 'initialize', name: 'benchDieMidWrite' },
  );
  const ctx: AppContext = {
    store: { client, tableName: order.itemsTable, now: Date.now },
    config: DEFAULT_APP_CONFIG,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
  await lorebookCreateAndCount(ctx, BENCH_CALLER, order.input);
} else {
  const powertools = powertoolsCreateAndCount({
    endpoint: order.endpoint,
    itemsTable: order.itemsTable,
    idempotencyTable: order.idempotencyTable,
    ...(order.expiresAfterSeconds === undefined ? {} : { expiresAfterSeconds: order.expiresAfterSeconds }),
    ...(order.conditioned === undefined ? {} : { conditioned: order.conditioned }),
    hooks: order.point === 'before-write' ? { beforeWrite: reached } : { afterWrite: reached },
  });
  const remaining = order.lambdaRemainingMs;
  const deadline = Date.now() + (remaining ?? 0);
  const context: LambdaContextLike | undefined =
    remaining === undefined ? undefined : { getRemainingTimeInMillis: () => deadline - Date.now() };
  await powertools.call(order.input, context);
}
process.send?.({ finished: true });
