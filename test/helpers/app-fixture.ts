// An AppContext on a fresh per-suite table, with a clock the test can move, a round-trip counter
// on the client, and a snapshot of every stored item so a test can say "byte-for-byte unchanged".
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll } from 'vitest';
import { type AppConfig, type AppContext, type Caller, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../src/app/context/verified-tokens.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { imageBlobsInDirectory } from '../../src/store/image/blobs-dir.ts';
import { countRoundTrips, type RoundTripCounter } from './round-trips.ts';
import { type TestTableOptions, testEndpoint, useTestTable } from './test-table.ts';

export interface AppFixture {
  ctx(): AppContext;
  counter(): RoundTripCounter;
  /** Moves the store clock forward (op expiry, later events). */
  advance(ms: number): void;
  /** Stops the store clock where it is (advance still moves it): a long test stays in one window. */
  freeze(): void;
  /** Every item except op records, sorted by key, sets as sorted arrays: the observable state. */
  state(): Promise<StoredState>;
  /** Every item including op records. */
  allItems(): Promise<Record<string, unknown>[]>;
  /** The items of one partition (PK), read as allItems reads: a Query, so a big table costs no Scan. */
  partition(pk: string): Promise<Record<string, unknown>[]>;
  /** The suite's image directory (the app's image store) and the blob names in it, sorted. */
  imageDir(): string;
  imageFiles(): string[];
}

export type StoredState = Record<string, unknown>[];

export function caller(name: string): Caller {
  return { account: `acct-${name}`, handle: `${name}.test` };
}

/**
 * The shared story fixtures are one narrative under many titles, so two accounts publishing them
 * would be a spam wave (design.md#spam-waves): suites turn the check on where they test it.
 */
export const WITHOUT_SPAM_WAVE_CHECK: Partial<AppConfig> = { duplicateWindowHours: 0 };

/**
 * Suites publish dozens of stories as one account within a second; the per-day limits (design.md#new-accounts)
 * are turned on by the suites that test them.
 */
export const WITHOUT_DAILY_LIMITS: Partial<AppConfig> = { storiesPerDay: 100_000, newAccountStoriesPerDay: 100_000 };

export function useAppFixture(suite: string, config: Partial<AppConfig> = {}, tableOptions: TestTableOptions = {}): AppFixture {
  const table = useTestTable(suite, tableOptions);
  let offsetMs = 0;
  let frozenAt: number | undefined;
  let context: AppContext | undefined;
  let roundTrips: RoundTripCounter | undefined;
  let appClient: DynamoDBDocumentClient | undefined;
  let images: string | undefined;
  const imageDir = (): string => (images ??= mkdtempSync(join(tmpdir(), 'lorebook-images-')));
  afterAll(() => {
    appClient?.destroy();
    if (images !== undefined) rmSync(images, { recursive: true, force: true });
  });

  // The app gets a client of its own, so the round-trip counter sees only the app's calls and
  // never the test's own snapshots.
  const ctx = (): AppContext => {
    if (context === undefined) {
      appClient = createStoreClient({ endpoint: testEndpoint() });
      context = {
        store: { client: appClient, tableName: table.tableName, now: () => (frozenAt ?? Date.now()) + offsetMs },
        config: { ...DEFAULT_APP_CONFIG, ...WITHOUT_SPAM_WAVE_CHECK, ...WITHOUT_DAILY_LIMITS, ...config },
        images: imageBlobsInDirectory(imageDir()),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        random: Math.random,
        // As every server process has (src/context.ts): the suites run with tokens remembered.
        verifiedTokens: new VerifiedTokens(),
      };
      roundTrips = countRoundTrips(appClient);
    }
    return context;
  };

  type Page = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };
  /** Every page of a consistent read, as plain items in key order. */
  const readAll = async (read: (start: Record<string, unknown> | undefined) => Promise<Page>): Promise<Record<string, unknown>[]> => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await read(start);
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return items.map(plain).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  };
  const allItems = (): Promise<Record<string, unknown>[]> =>
    readAll((start) => table.client.send(new ScanCommand({ TableName: table.tableName, ConsistentRead: true, ExclusiveStartKey: start })));
  const partition = (pk: string): Promise<Record<string, unknown>[]> =>
    readAll((start) =>
      table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          ConsistentRead: true,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ExclusiveStartKey: start,
        }),
      ),
    );

  return {
    ctx,
    counter: () => {
      ctx();
      return roundTrips as RoundTripCounter;
    },
    advance: (ms) => {
      offsetMs += ms;
    },
    freeze: () => {
      frozenAt ??= Date.now();
    },
    allItems,
    partition,
    imageDir,
    imageFiles: () => readdirSync(imageDir()).sort(),
    state: async () => (await allItems()).filter((item) => !String(item.PK).startsWith('OP#')),
  };
}

const sortKey = (item: Record<string, unknown>): string => `${String(item.PK)}\u0000${String(item.SK)}`;

/** Sets become sorted arrays so states compare with toEqual and print readably. */
function plain(value: unknown): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)].map(String).sort() : v)),
  ) as Record<string, unknown>;
}
