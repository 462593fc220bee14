import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config.ts';
import { readSettings } from '../../../src/settings/read-settings.ts';
import { SETTING_DOCS } from '../../../src/settings/settings-docs.ts';
import { isSettingName, SETTINGS } from '../../../src/settings/settings-table.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
/** Where lorebook's own code lives; test helpers may keep test-only knobs. */
const CODE_DIRS = ['src', 'handlers', 'integrations', 'infra'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/**
 * The agent skill, embedded as text: its LOREBOOK_URL, LOREBOOK_TOKEN and LOREBOOK_SKILL are the
 * agent's shell variables, not the server's settings.
 */
const AGENT_SKILL_TEXT = 'src/domain/skill/skill-markdown.ts';

const files = CODE_DIRS.flatMap(sourceFiles).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

describe('the settings table', () => {
  it('names every LOREBOOK_* and BLUESKY_* variable the code mentions', () => {
    const mentioned = (text: string): string[] =>
      [...text.matchAll(/\b(?:LOREBOOK|BLUESKY)_[A-Z0-9]+(?:_[A-Z0-9]+)*\b/g)].map(([name]) => name);
    // Constants spelled like variables (BLUESKY_ENV, a list of them) are code, not settings.
    const constants = new Set(
      files.flatMap(({ text }) => [...text.matchAll(/\bconst ((?:LOREBOOK|BLUESKY)_[A-Z0-9_]+)\b/g)].map(([, name]) => name)),
    );
    const unknown = files
      .filter(({ path }) => path !== AGENT_SKILL_TEXT)
      .flatMap(({ path, text }) =>
        mentioned(text)
          .filter((name) => !isSettingName(name) && !constants.has(name))
          .map((name) => `${path}: ${name}`),
      );
    expect(unknown).toEqual([]);
  });

  it('names each setting once, with a line of documentation and at least one command or function that reads it', () => {
    expect(new Set(SETTINGS.map((setting) => setting.name)).size).toBe(SETTINGS.length);
    for (const setting of SETTINGS) {
      expect(SETTING_DOCS[setting.name], setting.name).not.toContain('\n');
      expect(SETTING_DOCS[setting.name].length, setting.name).toBeGreaterThan(0);
      expect(setting.surfaces.length, setting.name).toBeGreaterThan(0);
    }
  });

  it('is the only reader of process.env: the two other mentions pass the environment on and read no setting', () => {
    const readers = files.filter(({ text }) => text.includes('process.env')).map(({ path }) => path);
    expect(readers.sort()).toEqual([
      // The CDK CLI's own account and region for the deploy, not a lorebook setting.
      'infra/app.ts',
      // DynamoDB Local's JVM inherits the whole environment (PATH, JAVA_HOME) plus telemetry off.
      'integrations/dynamodb-local/start-dynamodb-local.ts',
      'src/settings/read-settings.ts',
    ]);
  });

  it('passes on only its own variables: one it does not name never reaches the config', () => {
    expect(readSettings({ LOREBOOK_TABLE: 'stories', LOREBOOK_TABLE_TYPO: 'x', HOME: '/root' })).toEqual({ LOREBOOK_TABLE: 'stories' });
  });

  it('readConfig() with no argument reads process.env through the table', () => {
    const before = process.env.LOREBOOK_REPRODUCER_CAP;
    process.env.LOREBOOK_REPRODUCER_CAP = '42';
    try {
      expect(readConfig().app.reproducerCap).toBe(42);
    } finally {
      if (before === undefined) delete process.env.LOREBOOK_REPRODUCER_CAP;
      else process.env.LOREBOOK_REPRODUCER_CAP = before;
    }
  });

  it('gives readConfig the defaults lorebook has always had', () => {
    const config = readConfig({});
    expect([config.http.port, config.http.baseUrl, config.http.searchRefreshMs, config.http.allowedOrigins]).toEqual([
      8787,
      'http://127.0.0.1:8787',
      // The search change log is read at most once a second (it was a 5 s whole-feed rebuild before the log).
      1000,
      [],
    ]);
    expect([config.tableName, config.dataDir, config.ddbEndpoint, config.region]).toEqual([
      'lorebook',
      '.data/dynamodb',
      undefined,
      undefined,
    ]);
    expect(config.app).toMatchObject({
      opTtlSeconds: 86_400,
      reproducerCap: 10_000,
      rateLimitPerMinute: 100,
      anonymousRateLimitPerMinute: 60,
    });
    expect(config.dispatchIntervalMs).toBe(60_000);
    expect([config.images, config.search]).toEqual([{ directory: '.data/images' }, { directory: '.data/search' }]);
    expect(config.feedGenerator).toEqual({ publisherDid: undefined, rkey: 'lorebook', tags: ['typescript', 'dynamodb'] });
    expect(config.oauthServer).toEqual({
      accessTokenSeconds: 3600,
      refreshTokenSeconds: 2_592_000,
      authorizationCodeSeconds: 300,
      consentSeconds: 600,
      clientSeconds: 15_552_000,
      pendingClientSeconds: 86_400,
      registrationsPerHour: 100,
      clientMetadataTimeoutMs: 5000,
      allowPrivateFetch: false,
    });
  });

  it('an empty variable takes the default, as an unset one does', () => {
    expect(readConfig({ LOREBOOK_DISPATCH_INTERVAL_MS: '', LOREBOOK_TABLE: '', PORT: '' })).toMatchObject({
      dispatchIntervalMs: 60_000,
      tableName: 'lorebook',
      http: { port: 8787 },
    });
  });
});
