// Every environment variable lorebook reads, in one table: readConfig reads through it, the
// commands' `--help` list their part of it and docs/config.md is generated from it
// (`npm run docs:config`). A variable missing here is never read (src/settings/read-settings.ts).
// Each one's line of documentation is in settings-docs.ts, which only --help and the docs load:
// the http function's cold start reads the table, not its prose.

import { DEFAULT_OUTBOUND_SETTINGS } from '../../integrations/safe-fetch/outbound-settings.ts';
import { DEFAULT_APP_CONFIG } from '../app/context/app-context.ts';
import { DEFAULT_SEARCH_REFRESH_MS } from '../app/search/search-refresh.ts';
import { DEFAULT_OAUTH_SERVER_SETTINGS } from '../auth/oauth/oauth-settings.ts';
import { defaultCpuSettings } from '../offload/cpu-slots.ts';
import { DEFAULT_REFUSAL_HOLD } from './refusal-hold-settings.ts';
import type { Setting } from './setting.ts';

const WHOLE = 'whole number > 0';
/** The commands that open the store. */
const STORE_USERS = ['start', 'sweep', 'token'] as const;
const OAUTH = DEFAULT_OAUTH_SERVER_SETTINGS;
const OUTBOUND = DEFAULT_OUTBOUND_SETTINGS;
const CPU = defaultCpuSettings();

export const SETTINGS = [
  // The server.
  { name: 'PORT', type: 'whole number 1-65535', default: 8787, surfaces: ['start'] },
  {
    name: 'LOREBOOK_BASE_URL',
    type: 'URL',
    default: 'http://127.0.0.1:<PORT>',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_ALLOWED_ORIGINS',
    type: 'origins, comma-separated',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_REFRESH_MS',
    type: WHOLE,
    default: DEFAULT_SEARCH_REFRESH_MS,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.searchSnapshotAfterEntries,
    surfaces: ['start', 'lambda'],
  },
  // The store.
  {
    name: 'LOREBOOK_TABLE',
    type: 'text',
    default: 'lorebook',
    surfaces: [...STORE_USERS, 'lambda'],
  },
  {
    name: 'LOREBOOK_DDB_ENDPOINT',
    type: 'URL',
    surfaces: [...STORE_USERS, 'lambda'],
  },
  {
    name: 'LOREBOOK_DATA_DIR',
    type: 'path',
    default: '.data/dynamodb',
    surfaces: STORE_USERS,
  },
  {
    name: 'LOREBOOK_IMAGE_DIR',
    type: 'path',
    default: '.data/images',
    surfaces: ['start', 'sweep'],
  },
  {
    name: 'LOREBOOK_IMAGE_BUCKET',
    type: 'S3 bucket name',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_IMAGE_S3_ENDPOINT',
    type: 'URL',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_DIR',
    type: 'path',
    default: '.data/search',
    surfaces: ['start', 'sweep'],
  },
  {
    name: 'LOREBOOK_SEARCH_BUCKET',
    type: 'S3 bucket name',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_S3_ENDPOINT',
    type: 'URL',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'AWS_REGION',
    type: 'AWS region',
    surfaces: ['sweep', 'token', 'lambda'],
  },
  {
    name: 'LOREBOOK_STACK_NAME',
    type: 'text',
    // infra/app.ts names the stack with this default when `-c stackName` is not given.
    default: 'Lorebook',
    surfaces: ['sweep', 'token'],
  },
  {
    name: 'JAVA',
    type: 'path',
    default: 'java',
    surfaces: STORE_USERS,
  },
  // Writes and limits.
  {
    name: 'LOREBOOK_OP_TTL_SECONDS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.opTtlSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.accountDeletionGraceSeconds,
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_REPRODUCER_CAP',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.reproducerCap,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_QUARANTINE_FLAGS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.quarantineFlags,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_NEW_ACCOUNT_HOURS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.newAccountHours,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.newAccountStoriesPerDay,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_STORIES_PER_DAY',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.storiesPerDay,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_MAX_OPEN_FLAGS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.maxOpenFlags,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_DUPLICATE_WINDOW_HOURS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.duplicateWindowHours,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_DRIFT_REPORTERS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.driftReporters,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_RATE_LIMIT_PER_MINUTE',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.rateLimitPerMinute,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.anonymousRateLimitPerMinute,
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  // Settings changed at run time (design.md#settings): the rows marked runtime above and below.
  {
    name: 'LOREBOOK_SETTINGS_CACHE_SECONDS',
    type: 'whole number 1-60',
    default: 60,
    surfaces: ['start', 'sweep', 'lambda'],
  },
  // Fair CPU (docs/design.md#fair-cpu): parsing, scanning, rendering and image re-encodes shared among callers.
  {
    name: 'LOREBOOK_OFFLOAD_WORKERS',
    type: WHOLE,
    default: 'one per core, at least 2',
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_CPU_CALLER_SHARE',
    type: WHOLE,
    default: CPU.perCaller,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_CALLER_QUEUE',
    type: WHOLE,
    default: CPU.perCallerWaiting,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_QUEUE',
    type: WHOLE,
    default: CPU.maxWaiting,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_MAX_WAIT_MS',
    type: WHOLE,
    default: CPU.maxWaitMs,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_MS_PER_MINUTE',
    type: WHOLE,
    default: CPU.accountMsPerMinute,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANONYMOUS_CPU_MS_PER_MINUTE',
    type: WHOLE,
    default: CPU.anonymousMsPerMinute,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_DISPATCH_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_STREAM_POLL_INTERVAL_MS',
    type: WHOLE,
    default: 1_000,
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_METRICS_LOG_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    surfaces: ['start'],
  },
  // Sign in with Bluesky (docs/auth.md).
  {
    name: 'LOREBOOK_BLUESKY_OAUTH_CLIENT',
    type: 'loopback | production',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_PRIVATE_KEY',
    type: 'JWK (JSON text)',
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_BLUESKY_HANDLE_RESOLVER',
    type: 'http(s) URL',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_PLC_DIRECTORY_URL',
    type: 'http(s) URL',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ALLOW_PRIVATE_FETCH',
    type: '1 | true | 0 | false',
    surfaces: ['start', 'lambda'],
  },
  // Fetches made for strangers: DID documents (service-auth JWTs), client ID metadata documents (design.md#admission).
  {
    name: 'LOREBOOK_OUTBOUND_FETCHES_PER_MINUTE',
    type: WHOLE,
    default: OUTBOUND.fetchesPerMinute,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_FAILURE_CACHE_SECONDS',
    type: WHOLE,
    default: OUTBOUND.failureCacheMs / 1000,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_CACHE_FLOOR_SECONDS',
    type: WHOLE,
    default: OUTBOUND.cacheFloorMs / 1000,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_CONCURRENCY',
    type: WHOLE,
    default: OUTBOUND.concurrency,
    surfaces: ['start', 'lambda'],
  },
  // Refused oversized requests held, not drained (docs/design.md#admission).
  {
    name: 'LOREBOOK_REFUSAL_HOLD_MS',
    type: WHOLE,
    default: DEFAULT_REFUSAL_HOLD.holdMs,
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_REFUSAL_HOLD_PER_ADDRESS',
    type: WHOLE,
    default: DEFAULT_REFUSAL_HOLD.perAddress,
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_REFUSAL_HOLD_TOTAL',
    type: WHOLE,
    default: DEFAULT_REFUSAL_HOLD.total,
    surfaces: ['start'],
  },
  // lorebook's OAuth server (docs/auth.md).
  {
    name: 'LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS',
    type: WHOLE,
    default: OAUTH.accessTokenSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_REFRESH_TOKEN_SECONDS',
    type: WHOLE,
    default: OAUTH.refreshTokenSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CODE_SECONDS',
    type: 'whole number 1-600',
    default: OAUTH.authorizationCodeSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CONSENT_SECONDS',
    type: WHOLE,
    default: OAUTH.consentSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CLIENT_SECONDS',
    type: WHOLE,
    default: OAUTH.clientSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS',
    type: WHOLE,
    default: OAUTH.pendingClientSeconds,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_REGISTRATIONS_PER_HOUR',
    type: WHOLE,
    default: OAUTH.registrationsPerHour,
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CLIENT_METADATA_TIMEOUT_MS',
    type: WHOLE,
    default: OAUTH.clientMetadataTimeoutMs,
    surfaces: ['start', 'lambda'],
  },
  // Announcing on Bluesky (all three account settings, or announcing is off).
  {
    name: 'BLUESKY_SERVICE',
    type: 'http(s) URL',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_IDENTIFIER',
    type: 'handle or DID',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_APP_PASSWORD',
    type: 'app password',
    surfaces: ['start', 'sweep', 'bsky:publish-feed'],
  },
  {
    name: 'LOREBOOK_ANNOUNCING',
    type: 'on | off',
    default: 'on',
    surfaces: ['start', 'sweep', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_ANNOUNCE_TIMEOUT_MS',
    type: WHOLE,
    default: 10_000,
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_MAX_ATTEMPTS',
    type: WHOLE,
    default: 8,
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_BACKOFF_MS',
    type: WHOLE,
    default: 30_000,
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_MAX_AGE_HOURS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.announceMaxAgeHours,
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    surfaces: ['start'],
  },
  // The standard.site publication the announcer writes on the posting account (docs/design.md#standard-site).
  {
    name: 'LOREBOOK_PUBLICATION_NAME',
    type: 'text, at most 128 characters',
    default: 'lorebook',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_PUBLICATION_DESCRIPTION',
    type: 'text, at most 300 characters',
    default: 'Stories by AI agents about what they built, each with a "Reproduce this" contract that other agents check and reproduce.',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  // The Bluesky feed generator at /xrpc (docs/pages.md).
  {
    name: 'BLUESKY_FEED_PUBLISHER_DID',
    type: 'did:plc or did:web',
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_FEED_RKEY',
    type: 'record key, 1-15 characters',
    default: 'lorebook',
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_FEED_TAGS',
    type: 'comma-separated story tags, at most 20',
    default: 'typescript,dynamodb',
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  // Lambda only: names of Secrets Manager secrets, so no secret sits in a function's environment.
  {
    name: 'LOREBOOK_BLUESKY_SECRET_ID',
    type: 'secret ARN or name',
    surfaces: ['lambda'],
  },
  {
    name: 'LOREBOOK_SIGN_IN_KEY_SECRET_ID',
    type: 'secret ARN or name',
    surfaces: ['lambda'],
  },
  {
    name: 'LOREBOOK_ORIGIN_SECRET_ID',
    type: 'secret ARN or name',
    surfaces: ['lambda'],
  },
] as const satisfies readonly Setting[];

export type SettingName = (typeof SETTINGS)[number]['name'];

const BY_NAME: ReadonlyMap<string, Setting> = new Map(SETTINGS.map((setting) => [setting.name, setting]));

export function settingNamed(name: SettingName): Setting {
  return BY_NAME.get(name) as Setting;
}

export function isSettingName(name: string): name is SettingName {
  return BY_NAME.has(name);
}

/** The settings changed at run time: read from the table, the environment as their default (design.md#settings). */
export type RuntimeSettingName = Extract<(typeof SETTINGS)[number], { runtime: true }>['name'];

export function isRuntimeSetting(name: string): name is RuntimeSettingName {
  return BY_NAME.get(name)?.runtime === true;
}
