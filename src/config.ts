// Environment -> typed configuration, read once at start, through the settings table
// (src/settings/settings-table.ts: every variable's type, default and documentation).

import type { OutboundSettings } from '../integrations/safe-fetch/outbound-settings.ts';
import { type AppConfig, DEFAULT_APP_CONFIG } from './app/context/app-context.ts';
import { type OAuthServerSettings, readOAuthServerSettings } from './auth/oauth/oauth-settings.ts';
import { optionalUrl, readAllowPrivateFetch } from './auth/sign-in-config.ts';
import { MAX_TAG_CHARS } from './domain/story/front-matter-schema.ts';
import type { CpuSettings } from './offload/cpu-slots.ts';
import { defaultWorkers } from './offload/offload.ts';
import { readSettings } from './settings/read-settings.ts';
import type { RefusalHoldSettings } from './settings/refusal-hold-settings.ts';
import { runtimeConfig } from './settings/runtime-settings.ts';
import { boundedInteger, positiveInteger, wholeNumber } from './settings/setting-values.ts';
import { type SettingName, settingNamed } from './settings/settings-table.ts';

export interface Config {
  /** DynamoDB endpoint; unset = AWS (credentials from the default chain). */
  ddbEndpoint: string | undefined;
  region: string | undefined;
  tableName: string;
  /** Where the embedded DynamoDB keeps its files between local runs. */
  dataDir: string;
  /** Where uploaded images are kept: an S3 bucket when named, else a local directory. */
  images: { bucket: string; endpoint: string | undefined } | { directory: string };
  /** Where search index snapshots are kept: an S3 bucket when named, else a local directory. */
  search: { bucket: string; endpoint: string | undefined } | { directory: string };
  app: AppConfig;
  http: HttpConfig;
  /** Announcing new stories on Bluesky; undefined = off (BLUESKY_* unset). */
  bluesky: BlueskyConfig | undefined;
  /** Lifetimes of lorebook's OAuth server's tokens, codes and clients (LOREBOOK_OAUTH_*_SECONDS). */
  oauthServer: OAuthServerSettings;
  /** The Bluesky feed generator served at /xrpc (docs/pages.md). */
  feedGenerator: FeedGeneratorConfig;
  /** Fetches made for strangers (DID documents, client metadata documents): budget, caches, slots (design.md#admission). */
  outbound: OutboundSettings;
  /** How often `npm start` runs the notification dispatcher as a backstop to the run after each correction. */
  dispatchIntervalMs: number;
  /** How often `npm start` reads the table stream for its stream consumers once caught up. */
  streamPollIntervalMs: number;
  /** How often `npm start` logs its counters, when something moved (docs/metrics.md). */
  metricsLogIntervalMs: number;
  /** How the CPU-heavy slots are shared among callers (docs/design.md#fair-cpu). */
  cpu: CpuSettings;
  /** How long a process keeps the runtime settings it read from the table (design.md#settings). */
  settingsCacheMs: number;
}

/** Which feed record the feed generator answers for: at://<publisherDid>/app.bsky.feed.generator/<rkey>. */
export interface FeedGeneratorConfig {
  /** The account that holds the feed record (`npm run bsky:publish-feed` prints it); unset = no feed listed yet. */
  publisherDid: string | undefined;
  /** The main feed record's key: stable, so publishing again replaces the same record. */
  rkey: string;
  /** One feed per tag, in this order (LOREBOOK_FEED_TAGS). */
  tags: readonly string[];
  /** Where the signing keys of viewers' did:plc DIDs are looked up (service-auth JWTs); unset = https://plc.directory. */
  plcDirectoryUrl?: string;
  /** Development and tests only: DID documents may be fetched from loopback and private addresses. */
  allowPrivateFetch?: boolean;
}

/** The account that announces stories, and how hard the announcer tries (docs/design.md#write-rules). */
export interface BlueskyConfig {
  /** The PDS or entryway, e.g. https://bsky.social. */
  service: string;
  /** Handle or DID of the posting account. */
  identifier: string;
  /** An app password (Settings -> App passwords), never the account password. */
  appPassword: string;
  /** The longest any one call to Bluesky may take. */
  requestTimeoutMs: number;
  /** Attempts before a story's announcement is `failed`. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with every attempt, with jitter, up to an hour. */
  backoffBaseMs: number;
  /** The longest `npm start` waits between two sweeps; it wakes sooner when a queue entry is due. */
  sweepIntervalMs: number;
  /** The standard.site publication's name and description (design.md#standard-site). */
  publication: { name: string; description: string };
}

export const BLUESKY_ENV = ['BLUESKY_SERVICE', 'BLUESKY_IDENTIFIER', 'BLUESKY_APP_PASSWORD'] as const;

/** The local HTTP server (MCP at /mcp, the API at /v1). */
export interface HttpConfig {
  /** Listens on 127.0.0.1 only. */
  port: number;
  /** The public base URL: protected-resource metadata, WWW-Authenticate and Host checks use it. */
  baseUrl: string;
  /** Web origins (scheme://host[:port]) allowed to call from a browser; any other Origin is refused. */
  allowedOrigins: string[];
  /** The longest a search answers without reading the search change log first. */
  searchRefreshMs: number;
  /** Refused oversized requests held before their answer (docs/design.md#admission). */
  refusalHold: RefusalHoldSettings;
}

function port(env: NodeJS.ProcessEnv): number {
  return boundedInteger(env, 'PORT', 65_535);
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

function bluesky(env: NodeJS.ProcessEnv): BlueskyConfig | undefined {
  const missing = BLUESKY_ENV.filter((name) => !env[name]);
  if (missing.length === BLUESKY_ENV.length) return undefined;
  if (missing.length > 0) {
    throw new Error(
      `Bluesky announcing needs ${BLUESKY_ENV.join(', ')}; ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set (unset all three to turn announcing off)`,
    );
  }
  const service = String(env.BLUESKY_SERVICE);
  if (!URL.canParse(service) || !/^https?:$/.test(new URL(service).protocol)) {
    throw new Error(`BLUESKY_SERVICE must be an http(s) URL like https://bsky.social, got "${service}"`);
  }
  return {
    service: service.replace(/\/+$/, ''),
    identifier: String(env.BLUESKY_IDENTIFIER).replace(/^@/, ''),
    appPassword: String(env.BLUESKY_APP_PASSWORD),
    requestTimeoutMs: positiveInteger(env, 'LOREBOOK_ANNOUNCE_TIMEOUT_MS'),
    maxAttempts: positiveInteger(env, 'LOREBOOK_ANNOUNCE_MAX_ATTEMPTS'),
    backoffBaseMs: positiveInteger(env, 'LOREBOOK_ANNOUNCE_BACKOFF_MS'),
    sweepIntervalMs: positiveInteger(env, 'LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS'),
    publication: {
      name: boundedText(env, 'LOREBOOK_PUBLICATION_NAME', 128),
      description: boundedText(env, 'LOREBOOK_PUBLICATION_DESCRIPTION', 300),
    },
  };
}

/** A text setting of 1 to `max` characters (the publication lexicon's limits are far above these). */
function boundedText(env: NodeJS.ProcessEnv, name: SettingName, max: number): string {
  const value = (env[name] || text(name)).trim();
  if (value === '' || [...value].length > max) throw new Error(`${name} must be 1 to ${max} characters, got ${[...value].length}`);
  return value;
}

/** A text setting's default from the table. */
const text = (name: SettingName): string => String(settingNamed(name).default);

export function readConfig(env: NodeJS.ProcessEnv = readSettings()): Config {
  const listenPort = port(env);
  return {
    ddbEndpoint: env.LOREBOOK_DDB_ENDPOINT || undefined,
    region: env.AWS_REGION || undefined,
    tableName: env.LOREBOOK_TABLE || text('LOREBOOK_TABLE'),
    dataDir: env.LOREBOOK_DATA_DIR || text('LOREBOOK_DATA_DIR'),
    images: env.LOREBOOK_IMAGE_BUCKET
      ? { bucket: env.LOREBOOK_IMAGE_BUCKET, endpoint: env.LOREBOOK_IMAGE_S3_ENDPOINT || undefined }
      : { directory: env.LOREBOOK_IMAGE_DIR || text('LOREBOOK_IMAGE_DIR') },
    search: env.LOREBOOK_SEARCH_BUCKET
      ? { bucket: env.LOREBOOK_SEARCH_BUCKET, endpoint: env.LOREBOOK_SEARCH_S3_ENDPOINT || undefined }
      : { directory: env.LOREBOOK_SEARCH_DIR || text('LOREBOOK_SEARCH_DIR') },
    app: {
      ...DEFAULT_APP_CONFIG,
      opTtlSeconds: positiveInteger(env, 'LOREBOOK_OP_TTL_SECONDS'),
      reproducerCap: positiveInteger(env, 'LOREBOOK_REPRODUCER_CAP'),
      driftReporters: positiveInteger(env, 'LOREBOOK_DRIFT_REPORTERS'),
      publicBaseUrl: baseUrl(env, listenPort),
      accountDeletionGraceSeconds: wholeNumber(env, 'LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS'),
      searchSnapshotAfterEntries: wholeNumber(env, 'LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES'),
      announceMaxAgeHours: positiveInteger(env, 'LOREBOOK_ANNOUNCE_MAX_AGE_HOURS'),
      // The environment's values of the runtime settings: the defaults the table's values override (design.md#settings).
      ...runtimeConfig(env),
    },
    http: {
      port: listenPort,
      baseUrl: baseUrl(env, listenPort),
      allowedOrigins: origins(env.LOREBOOK_ALLOWED_ORIGINS),
      searchRefreshMs: positiveInteger(env, 'LOREBOOK_SEARCH_REFRESH_MS'),
      refusalHold: {
        holdMs: positiveInteger(env, 'LOREBOOK_REFUSAL_HOLD_MS'),
        perAddress: positiveInteger(env, 'LOREBOOK_REFUSAL_HOLD_PER_ADDRESS'),
        total: positiveInteger(env, 'LOREBOOK_REFUSAL_HOLD_TOTAL'),
      },
    },
    bluesky: bluesky(env),
    feedGenerator: feedGenerator(env),
    outbound: {
      fetchesPerMinute: positiveInteger(env, 'LOREBOOK_OUTBOUND_FETCHES_PER_MINUTE'),
      failureCacheMs: positiveInteger(env, 'LOREBOOK_OUTBOUND_FAILURE_CACHE_SECONDS') * 1000,
      cacheFloorMs: positiveInteger(env, 'LOREBOOK_OUTBOUND_CACHE_FLOOR_SECONDS') * 1000,
      concurrency: positiveInteger(env, 'LOREBOOK_OUTBOUND_CONCURRENCY'),
    },
    dispatchIntervalMs: positiveInteger(env, 'LOREBOOK_DISPATCH_INTERVAL_MS'),
    streamPollIntervalMs: positiveInteger(env, 'LOREBOOK_STREAM_POLL_INTERVAL_MS'),
    metricsLogIntervalMs: positiveInteger(env, 'LOREBOOK_METRICS_LOG_INTERVAL_MS'),
    oauthServer: readOAuthServerSettings(env),
    cpu: cpuSettings(env),
    settingsCacheMs: boundedInteger(env, 'LOREBOOK_SETTINGS_CACHE_SECONDS', 60) * 1000,
  };
}

function cpuSettings(env: NodeJS.ProcessEnv): CpuSettings {
  return {
    workers: env.LOREBOOK_OFFLOAD_WORKERS ? positiveInteger(env, 'LOREBOOK_OFFLOAD_WORKERS') : defaultWorkers(),
    perCaller: positiveInteger(env, 'LOREBOOK_CPU_CALLER_SHARE'),
    perCallerWaiting: positiveInteger(env, 'LOREBOOK_CPU_CALLER_QUEUE'),
    maxWaiting: positiveInteger(env, 'LOREBOOK_CPU_QUEUE'),
    maxWaitMs: positiveInteger(env, 'LOREBOOK_CPU_MAX_WAIT_MS'),
    accountMsPerMinute: positiveInteger(env, 'LOREBOOK_CPU_MS_PER_MINUTE'),
    anonymousMsPerMinute: positiveInteger(env, 'LOREBOOK_ANONYMOUS_CPU_MS_PER_MINUTE'),
  };
}

function feedGenerator(env: NodeJS.ProcessEnv): FeedGeneratorConfig {
  const publisherDid = env.BLUESKY_FEED_PUBLISHER_DID || undefined;
  if (publisherDid !== undefined && !/^did:(plc|web):[A-Za-z0-9._:%-]+$/.test(publisherDid)) {
    throw new Error(`BLUESKY_FEED_PUBLISHER_DID must be a DID like did:plc:abc123, got "${publisherDid}"`);
  }
  const rkey = env.BLUESKY_FEED_RKEY || text('BLUESKY_FEED_RKEY');
  // A record key (atproto "record-key" syntax), and short: it shows in the feed's URL on Bluesky.
  if (!/^[A-Za-z0-9._~:-]{1,15}$/.test(rkey) || rkey === '.' || rkey === '..') {
    throw new Error(`BLUESKY_FEED_RKEY must be 1-15 letters, digits or . _ ~ : -, got "${rkey}"`);
  }
  const plcDirectoryUrl = optionalUrl(env, 'LOREBOOK_PLC_DIRECTORY_URL');
  return {
    publisherDid,
    rkey,
    tags: feedTags(env),
    ...(plcDirectoryUrl === undefined ? {} : { plcDirectoryUrl }),
    ...(readAllowPrivateFetch(env) ? { allowPrivateFetch: true } : {}),
  };
}

/** Each tag feed is a record to publish and a feed to serve: a short list. */
const MAX_FEED_TAGS = 20;

/** LOREBOOK_FEED_TAGS: comma-separated story tags (lowercase kebab-case, as stories write them), each listed once. */
function feedTags(env: NodeJS.ProcessEnv): string[] {
  const raw = env.LOREBOOK_FEED_TAGS ?? text('LOREBOOK_FEED_TAGS');
  const tags = raw
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  for (const tag of tags) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(tag) || tag.length > MAX_TAG_CHARS)
      throw new Error(
        `LOREBOOK_FEED_TAGS holds "${tag}", which is not a story tag (lowercase kebab-case, at most ${MAX_TAG_CHARS} characters)`,
      );
  }
  if (new Set(tags).size !== tags.length) throw new Error(`LOREBOOK_FEED_TAGS lists a tag twice: "${raw}"`);
  if (tags.length > MAX_FEED_TAGS) throw new Error(`LOREBOOK_FEED_TAGS lists ${tags.length} tags; at most ${MAX_FEED_TAGS}`);
  return tags;
}
