// The crash-point matrix: a write use case, a fault at each awaited store step, then the caller's
// retry with the same input — the end state must be the state of one clean call.
//
// Every scenario runs on a fresh table with the same setup at the same clock, so "the state of one
// clean call" is a real state to compare with, item for item (op records included). The clock
// moves between the faulted call (T0) and the retry (T1): a retry that wrote a second notification
// or a second revision would land on a new key and show up, instead of overwriting the first.
// The state to expect follows from the fault: if the write had reached the server, the clean call
// at T0 (the first call's write stands, the retry changes nothing); if not, the clean call at T1
// (the retry is the first write).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppConfig, type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { LorebookError } from '../../src/domain/errors.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { imageBlobsInDirectory } from '../../src/store/image/blobs-dir.ts';
import { WITHOUT_SPAM_WAVE_CHECK } from '../helpers/app-fixture.ts';
import { type FaultMoment, injectStoreFault } from '../helpers/inject-store-fault.ts';
import { operationName, WRITE_OPERATIONS } from '../helpers/round-trips.ts';
import { createTestTable, testEndpoint } from '../helpers/test-table.ts';

/** A UTC day in milliseconds: an image's daily count is keyed by the UTC date. */
const DAY_MS = 86_400_000;
/**
 * Setup runs at SETUP (one second further per step); the faulted call at T0; the retry at T1. SETUP
 * is now, but never in the last hour of a UTC day: setup and retry fall on one day even when the
 * suite runs across midnight (a retry on the next day would count an image again).
 */
const STARTED = Date.now();
const SETUP = Math.min(Math.floor(STARTED / 1000) * 1000, Math.floor(STARTED / DAY_MS) * DAY_MS + DAY_MS - 3_600_000);
const T0 = SETUP + 60_000;
const T1 = SETUP + 120_000;
export const OP_ID = 'op-crash-point';

export interface CrashWorld {
  ctx: AppContext;
  /** Moves the store clock on by a second: setup steps happen one after the other. */
  tick(): void;
}

export interface CrashCase<S> {
  /** The use case and the situation, e.g. "report_reproduction, a first report". */
  name: string;
  /** The state before the call, written by the use cases themselves; returns what the call needs. */
  setup(world: CrashWorld): Promise<S>;
  /** The call under test; `opId` is undefined for the plain variant. */
  call(ctx: AppContext, given: S, opId: string | undefined): Promise<object>;
  /** The store calls one clean call makes, in order (checked, so the matrix cannot drift). */
  steps: { plain: string[]; withOpId: string[] };
  /**
   * What a call without an op_id answers when it finds its own write already applied (it cannot
   * tell that write from an earlier identical one): the clean answer unless a use case says
   * otherwise — edit_story's repeat tells nobody, so it answers notified: 0.
   */
  asRepeat?(answer: Record<string, unknown>): Record<string, unknown>;
  /**
   * The call writes no op record (a refusal that keeps its own record, design.md#spam-waves): a retry with the op_id answers
   * again, not as a replay.
   */
  writesNoOpRecord?: true;
  /** Settings for this case over the harness's own (which turn the spam-wave check off). */
  config?: Partial<AppConfig>;
  /** The call stores image files too (upload_image): the context gets a directory, the state lists its files. */
  images?: true;
  /**
   * Values each fresh table draws at random (a draft's claim salt, and the id and token derived
   * from it), found in its items: replaced by placeholders in the state and the answer, so two
   * tables' states compare item for item.
   */
  drawnAtRandom?(items: readonly Record<string, unknown>[]): string[];
}

type Moment = FaultMoment | 'answer-lost';

interface Scenario {
  title: string;
  fault?: { call: number; moment: FaultMoment };
  /** Whether the write had reached the server when the fault hit. */
  applied: boolean;
}

interface Outcome {
  answer: Record<string, unknown>;
  /** Every item, then (for a case with images) one `{ file }` per stored image file. */
  items: Record<string, unknown>[];
  steps: string[];
}

const isWrite = (operation: string): boolean => WRITE_OPERATIONS.has(operation);

/** Every fault point of a call that makes `steps`: before each step, after each write, and the answer lost at the end. */
export function scenariosFor(steps: readonly string[]): Scenario[] {
  const scenarios: Scenario[] = [];
  steps.forEach((operation, call) => {
    const appliedBefore = steps.slice(0, call).some(isWrite);
    const what = isWrite(operation) ? `the write (${operation})` : `the read (${operation})`;
    scenarios.push({ title: `the process fails before ${what} is sent`, fault: { call, moment: 'before' }, applied: appliedBefore });
    if (isWrite(operation)) {
      scenarios.push({
        title: `${operation} is applied but its response is lost`,
        fault: { call, moment: 'response-lost' },
        applied: true,
      });
      scenarios.push({
        title: `${operation} is applied, its response is lost and the SDK resends it`,
        fault: { call, moment: 'sdk-resend' },
        applied: true,
      });
    }
  });
  scenarios.push({ title: 'the call completes but its answer never reaches the caller', applied: steps.some(isWrite) });
  return scenarios;
}

function moment(scenario: Scenario): Moment {
  return scenario.fault?.moment ?? 'answer-lost';
}

/** Registers the matrix for one case: both variants (no op_id, and with an op_id), every fault point. */
export function crashPoints<S>(kase: CrashCase<S>): void {
  describe(`${kase.name}: a fault at every store step, then a retry, ends as one clean call`, () => {
    for (const variant of ['plain', 'withOpId'] as const) {
      const opId = variant === 'withOpId' ? OP_ID : undefined;
      const label = variant === 'withOpId' ? 'with an op_id' : 'without an op_id';
      const clean: { t0?: Outcome; t1?: Outcome } = {};

      beforeAll(async () => {
        clean.t0 = await onFreshTable(kase, (world, given) => callAt(world, T0, () => kase.call(world.ctx, given, opId)));
        clean.t1 = await onFreshTable(kase, (world, given) => callAt(world, T1, () => kase.call(world.ctx, given, opId)));
      });

      it(`${label}: one clean call makes the store calls ${kase.steps[variant].join(' -> ')}`, () => {
        expect(clean.t0?.steps).toEqual(kase.steps[variant]);
      });

      const repeat = (answer: Record<string, unknown>): Record<string, unknown> =>
        opId === undefined && kase.asRepeat !== undefined ? kase.asRepeat(answer) : answer;

      for (const scenario of scenariosFor(kase.steps[variant])) {
        it(`${label}: ${scenario.title}`, async () => {
          const expected = (scenario.applied ? clean.t0 : clean.t1) as Outcome;
          const expectedAnswer = scenario.applied ? repeat(expected.answer) : expected.answer;
          const { first, retry } = await onFreshTable(kase, async (world, given) => {
            const faulted = await callAt(world, T0, () => kase.call(world.ctx, given, opId), scenario.fault);
            const again = await callAt(world, T1, () => kase.call(world.ctx, given, opId));
            return { first: faulted, retry: again };
          });

          const m = moment(scenario);
          if (m === 'before' || m === 'response-lost') {
            // The caller is told to retry, and nothing said the write happened or did not.
            expect(first.error?.code).toBe('store_unavailable');
            expect(first.error?.retryable).toBe(true);
          } else {
            // The SDK's own resend, or an answer the caller never saw: the call itself answered.
            expect(first.error).toBeUndefined();
            expect(withoutReplayed(first.answer)).toEqual(withoutReplayed((clean.t0 as Outcome).answer));
          }
          // The end state is the state of one clean call, op record included.
          expect(retry.items).toEqual(expected.items);
          // And the retry answers what that clean call answered: when the write had landed, as a
          // repeat without an op_id (asRepeat) and as a replay with one.
          expect(withoutReplayed(retry.answer)).toEqual(withoutReplayed(expectedAnswer));
          if (opId !== undefined && kase.writesNoOpRecord === undefined)
            expect(retry.answer.replayed).toBe(scenario.applied ? true : undefined);
        });
      }
    }
  });
}

interface CallResult {
  answer: Record<string, unknown>;
  error?: LorebookError;
  items: Record<string, unknown>[];
  steps: string[];
}

type World = CrashWorld & {
  scan(): Promise<Record<string, unknown>[]>;
  drawnAtRandom(items: readonly Record<string, unknown>[]): string[];
  clock: { now: number };
};

async function callAt(
  world: World,
  at: number,
  call: () => Promise<object>,
  fault?: { call: number; moment: FaultMoment },
): Promise<CallResult> {
  world.clock.now = at;
  const client = world.ctx.store.client;
  const recorder = recordSteps(client);
  const injected = fault === undefined ? undefined : injectStoreFault(client, fault);
  let answer: Record<string, unknown> = {};
  let error: LorebookError | undefined;
  try {
    answer = (await call()) as Record<string, unknown>;
  } catch (caught) {
    if (!(caught instanceof LorebookError)) throw caught;
    error = caught;
  } finally {
    injected?.remove();
    recorder.stop();
  }
  if (injected !== undefined) expect(injected.firedOn(), 'the fault fired').toBeDefined();
  const items = await world.scan();
  const drawn = world.drawnAtRandom(items);
  return {
    answer: withPlaceholders(answer, drawn),
    ...(error === undefined ? {} : { error }),
    items: withPlaceholders(items, drawn),
    steps: recorder.steps,
  };
}

/** `value` with each of `drawn` spelled as `<drawn N>`, wherever it occurs. */
function withPlaceholders<T>(value: T, drawn: readonly string[]): T {
  let text = JSON.stringify(value);
  drawn.forEach((random, index) => {
    text = text.replaceAll(random, `<drawn ${index + 1}>`);
  });
  return JSON.parse(text) as T;
}

async function onFreshTable<S, T>(kase: CrashCase<S>, body: (world: World, given: S) => Promise<T>): Promise<T> {
  const table = await createTestTable(`crash-${kase.name}`);
  const client = createStoreClient({ endpoint: testEndpoint() });
  const imageDir = kase.images === undefined ? undefined : mkdtempSync(join(tmpdir(), 'lorebook-crash-images-'));
  const clock = { now: SETUP };
  const ctx: AppContext = {
    store: { client, tableName: table.tableName, now: () => clock.now },
    config: { ...DEFAULT_APP_CONFIG, ...WITHOUT_SPAM_WAVE_CHECK, ...kase.config },
    ...(imageDir === undefined ? {} : { images: imageBlobsInDirectory(imageDir) }),
    sleep: async () => {},
    random: () => 0.5,
  };
  const world: World = {
    ctx,
    clock,
    tick: () => {
      clock.now += 1000;
    },
    scan: async () => [...(await scanAll(table.client, table.tableName)), ...filesIn(imageDir)],
    drawnAtRandom: (items) => kase.drawnAtRandom?.(items) ?? [],
  };
  try {
    const given = await kase.setup(world);
    return await body(world, given);
  } finally {
    client.destroy();
    await table.drop();
    if (imageDir !== undefined) rmSync(imageDir, { recursive: true, force: true });
  }
}

/** Every file in the image directory, by name, with its size. */
function filesIn(directory: string | undefined): Record<string, unknown>[] {
  if (directory === undefined) return [];
  return readdirSync(directory)
    .sort()
    .map((file) => ({ file, bytes: statSync(join(directory, file)).size }));
}

function recordSteps(client: DynamoDBDocumentClient): { steps: string[]; stop(): void } {
  const steps: string[] = [];
  const name = `lorebookCrashSteps${Math.random().toString(36).slice(2)}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      steps.push(operationName(String(context.commandName)));
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );
  return { steps, stop: () => client.middlewareStack.remove(name) };
}

/** Every item, op records included, sorted by key; sets as sorted arrays. */
async function scanAll(client: DynamoDBDocumentClient, tableName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  const plain = items.map(
    (item) =>
      JSON.parse(
        JSON.stringify(item, (_key, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)].map(String).sort() : v)),
      ) as Record<string, unknown>,
  );
  const key = (item: Record<string, unknown>): string => `${String(item.PK)}\u0000${String(item.SK)}`;
  return plain.sort((a, b) => key(a).localeCompare(key(b)));
}

function withoutReplayed(answer: Record<string, unknown>): Record<string, unknown> {
  const { replayed: _replayed, ...rest } = answer;
  return rest;
}
