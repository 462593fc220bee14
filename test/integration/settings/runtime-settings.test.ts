// Runtime settings (design.md#settings) against DynamoDB Local: `npm run settings -- set` (the real CLI, a
// child process) changes a rate limit that two server instances built as `npm start` builds them
// (readConfig -> buildContext -> httpAppFromConfig, each with its own settings cache of 1 s) and
// the Lambda http handler (a synthetic Function URL event) all honour without a restart; the CLI
// refuses what the environment would refuse; the write is twice-safe; and a request costs no
// settings read of its own.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../../handlers/http.ts';
import { setSetting } from '../../../src/app/settings/set-setting.ts';
import { readConfig } from '../../../src/config.ts';
import { buildContext } from '../../../src/context.ts';
import { httpAppFromConfig } from '../../../src/http/app-from-config.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { eventually } from '../../helpers/eventually.ts';
import { FUNCTION_URL, functionUrlFetch } from '../../helpers/function-url.ts';
import { countRoundTrips } from '../../helpers/round-trips.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('runtime-settings');
const scratch = mkdtempSync(join(tmpdir(), 'lorebook-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SETTING = 'LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE';

/** What every process of this suite is started with: this suite's table, a settings cache of 1 s. */
const env = (): Record<string, string> => ({
  LOREBOOK_DDB_ENDPOINT: testEndpoint(),
  LOREBOOK_TABLE: app.ctx().store.tableName,
  LOREBOOK_DATA_DIR: join(scratch, 'data'),
  LOREBOOK_IMAGE_DIR: join(scratch, 'images'),
  LOREBOOK_SEARCH_DIR: join(scratch, 'search'),
  LOREBOOK_SETTINGS_CACHE_SECONDS: '1',
  [SETTING]: '500',
});

/** A server instance as `npm start` builds one, answering in-process. */
function serverInstance(): { ctx: ReturnType<typeof buildContext>; get(path: string): Promise<Response> } {
  const config = readConfig(env());
  const ctx = buildContext(config);
  const http = httpAppFromConfig({ ctx, config, signIn: undefined, log: () => {} });
  const { host } = new URL(config.http.baseUrl);
  return { ctx, get: async (path) => http.request(`${config.http.baseUrl}${path}`, { headers: { host } }) };
}

async function settingsCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/settings.ts', ...args], {
      env: { ...withoutLorebookSettings(), ...env() },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const storedSettings = async (): Promise<Record<string, unknown>[]> => (await app.allItems()).filter((item) => item.PK === 'SETTING');
const limitOf = (response: Response): string | null => response.headers.get('RateLimit-Limit');

describe('npm run settings -- set', () => {
  it('refuses a deploy-time setting with a usage error, writing nothing (every refusal: test/unit/cli/settings-task.test.ts)', async () => {
    const deployTime = await settingsCli('set', 'LOREBOOK_TABLE', 'other');
    expect(deployTime.code).toBe(2);
    expect(deployTime.stderr).toContain('LOREBOOK_TABLE is fixed at deploy time');
    expect(await storedSettings()).toEqual([]);
  }, 60_000);

  it('is honoured by two npm start instances and the Lambda http handler on the same table within the cache period, with no restart', async () => {
    const first = serverInstance();
    const second = serverInstance();
    const lambda = functionUrlFetch(createHttpHandler({ env: env(), log: () => {} }));
    const lambdaGet = (path: string): Promise<Response> => lambda(`${FUNCTION_URL}${path}`);
    // Each has read the table once already (nothing set): the environment's 500 applies.
    for (const get of [first.get, second.get, lambdaGet]) expect(limitOf(await get('/v1/stories'))).toBe('500');

    const set = await settingsCli('set', SETTING, '7', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ name: SETTING, value: '7', previous: null, changed: true });

    for (const [name, get] of Object.entries({ first: first.get, second: second.get, lambda: lambdaGet })) {
      await eventually(
        async () => (limitOf(await get('/v1/stories')) === '7' ? true : undefined),
        `${name} honours the new limit`,
        10_000,
        250,
      );
    }
    const listed = await settingsCli('get', SETTING, '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject({ name: SETTING, value: '7', default: '60' });
    for (const instance of [first, second]) instance.ctx.store.client.destroy();
  }, 120_000);
});

describe('the settings write', () => {
  it('is twice-safe: the same value again writes no setting, 16 at once change it once, an op_id replay answers the first answer', async () => {
    const ctx = app.ctx();
    const input = { name: 'LOREBOOK_QUARANTINE_FLAGS', value: '5', actor: 'operator:test' };
    const first = await setSetting(ctx, { ...input, op_id: 'op-set-1' });
    expect(first).toMatchObject({ changed: true, previous: null });
    const again = await setSetting(ctx, { ...input, op_id: 'op-set-2' });
    expect(again).toMatchObject({ changed: false, previous: '5' });
    const replay = await setSetting(ctx, { ...input, op_id: 'op-set-1' });
    expect(replay).toEqual({ ...first, replayed: true });

    const parallel = await Promise.all(
      Array.from({ length: 16 }, (_, index) => setSetting(ctx, { ...input, value: '6', op_id: `op-set-parallel-${index}` })),
    );
    expect(parallel.filter((outcome) => outcome.changed)).toHaveLength(1);
    const stored = (await storedSettings()).find((item) => item.SK === 'LOREBOOK_QUARANTINE_FLAGS');
    expect(stored).toMatchObject({ value: '6', updated_by: 'operator:test' });
    expect(parallel.find((outcome) => outcome.changed)).toBeDefined();
  });
});

describe('the settings cache', () => {
  it('reads the table once per period, that one read shared by concurrent requests; requests in between read nothing for settings', async () => {
    const instance = serverInstance();
    const counter = countRoundTrips(instance.ctx.store.client);
    await Promise.all(Array.from({ length: 16 }, () => instance.ctx.refreshSettings?.()));
    expect(counter.snapshot()).toEqual({ Query: 1 });
    counter.reset();
    await Promise.all(Array.from({ length: 16 }, () => instance.ctx.refreshSettings?.()));
    expect(counter.total()).toBe(0);
    counter.detach();
    instance.ctx.store.client.destroy();
  });
});
