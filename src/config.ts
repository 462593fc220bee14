// Environment -> typed configuration, read once at start. Nothing else reads process.env.
import { DEFAULT_APP_CONFIG, type AppConfig } from './app/app-context.ts';

export interface Config {
  /** DynamoDB endpoint; unset = AWS (credentials from the default chain). */
  ddbEndpoint: string | undefined;
  region: string | undefined;
  tableName: string;
  /** Where the embedded DynamoDB keeps its files between local runs. */
  dataDir: string;
  app: AppConfig;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    ddbEndpoint: env.LOREBOOK_DDB_ENDPOINT || undefined,
    region: env.AWS_REGION || undefined,
    tableName: env.LOREBOOK_TABLE || 'lorebook',
    dataDir: env.LOREBOOK_DATA_DIR || '.data/dynamodb',
    app: {
      ...DEFAULT_APP_CONFIG,
      opTtlSeconds: positiveInteger(env, 'LOREBOOK_OP_TTL_SECONDS', DEFAULT_APP_CONFIG.opTtlSeconds),
      reproducerCap: positiveInteger(env, 'LOREBOOK_REPRODUCER_CAP', DEFAULT_APP_CONFIG.reproducerCap),
      rateLimitPerMinute: positiveInteger(env, 'LOREBOOK_RATE_LIMIT_PER_MINUTE', DEFAULT_APP_CONFIG.rateLimitPerMinute),
      anonymousRateLimitPerMinute: positiveInteger(
        env,
        'LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE',
        DEFAULT_APP_CONFIG.anonymousRateLimitPerMinute,
      ),
    },
  };
}
