// Environment -> typed configuration, read once at start. Nothing else reads process.env.
import { DEFAULT_APP_CONFIG, type AppConfig } from './app/app-context.ts';
import { DEFAULT_SEARCH_REFRESH_MS } from './app/search/story-search.ts';

export interface Config {
  /** DynamoDB endpoint; unset = AWS (credentials from the default chain). */
  ddbEndpoint: string | undefined;
  region: string | undefined;
  tableName: string;
  /** Where the embedded DynamoDB keeps its files between local runs. */
  dataDir: string;
  app: AppConfig;
  http: HttpConfig;
}

/** The local HTTP server (MCP at /mcp, the API at /v1). */
export interface HttpConfig {
  /** Listens on 127.0.0.1 only. */
  port: number;
  /** The public base URL: protected-resource metadata, WWW-Authenticate and Host checks use it. */
  baseUrl: string;
  /** Web origins (scheme://host[:port]) allowed to call from a browser; any other Origin is refused. */
  allowedOrigins: string[];
  /** The longest the search index is used before it is rebuilt from the feed. */
  searchRefreshMs: number;
}

export const DEFAULT_PORT = 8787;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

function port(env: NodeJS.ProcessEnv): number {
  const value = positiveInteger(env, 'PORT', DEFAULT_PORT);
  if (value > 65_535) throw new Error(`PORT must be at most 65535, got "${value}"`);
  return value;
}

function origins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
    .map((origin) => {
      const url = URL.canParse(origin) ? new URL(origin) : undefined;
      if (url === undefined || url.origin !== origin) {
        throw new Error(`LOREBOOK_ALLOWED_ORIGINS holds "${origin}", which is not an origin like https://example.com`);
      }
      return origin;
    });
}

function baseUrl(env: NodeJS.ProcessEnv, listenPort: number): string {
  const raw = env.LOREBOOK_BASE_URL || `http://127.0.0.1:${listenPort}`;
  if (!URL.canParse(raw)) throw new Error(`LOREBOOK_BASE_URL must be a URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const listenPort = port(env);
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
    http: {
      port: listenPort,
      baseUrl: baseUrl(env, listenPort),
      allowedOrigins: origins(env.LOREBOOK_ALLOWED_ORIGINS),
      searchRefreshMs: positiveInteger(env, 'LOREBOOK_SEARCH_REFRESH_MS', DEFAULT_SEARCH_REFRESH_MS),
    },
  };
}
