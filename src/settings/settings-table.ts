// Every environment variable lorebook reads, in one table: readConfig reads through it, the
// commands' `--help` list their part of it and docs/config.md is generated from it
// (`npm run docs:config`). A variable missing here is never read (src/settings/read-settings.ts).
import { DEFAULT_APP_CONFIG } from '../app/app-context.ts';
import { DEFAULT_SEARCH_REFRESH_MS } from '../app/search/search-refresh.ts';
import { DEFAULT_OUTBOUND_SETTINGS } from '../../integrations/safe-fetch/outbound-settings.ts';
import { DEFAULT_OAUTH_SERVER_SETTINGS } from '../auth/oauth/oauth-settings.ts';
import { defaultCpuSettings } from '../offload/cpu-slots.ts';
import type { Setting } from './setting.ts';

const WHOLE = 'whole number > 0';
/** The commands that open the store. */
const STORE_USERS = ['start', 'sweep', 'token'] as const;
const OAUTH = DEFAULT_OAUTH_SERVER_SETTINGS;
const OUTBOUND = DEFAULT_OUTBOUND_SETTINGS;
const CPU = defaultCpuSettings();

export const SETTINGS = [
  // The server.
  { name: 'PORT', type: 'whole number 1-65535', default: 8787, doc: "the server's port, on 127.0.0.1 only", surfaces: ['start'] },
  {
    name: 'LOREBOOK_BASE_URL',
    type: 'URL',
    default: 'http://127.0.0.1:<PORT>',
    doc: 'the public base URL: links (story_url in publish and edit answers included), OAuth metadata and Host checks use it; on Lambda the Function URL by default',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_ALLOWED_ORIGINS',
    type: 'origins, comma-separated',
    doc: 'web origins (scheme://host[:port]) allowed to call from a browser; unset = none',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_REFRESH_MS',
    type: WHOLE,
    default: DEFAULT_SEARCH_REFRESH_MS,
    doc: "the longest a search answers without first reading the search change log (other instances' writes reach search within about this long, docs/search.md)",
    surfaces: ['start', 'lambda'],
  },
  // The store.
  {
    name: 'LOREBOOK_TABLE',
    type: 'text',
    default: 'lorebook',
    doc: "the DynamoDB table name; an operator command's --aws run without it reads the TableName output of the stack LOREBOOK_STACK_NAME",
    surfaces: [...STORE_USERS, 'lambda'],
  },
  {
    name: 'LOREBOOK_DDB_ENDPOINT',
    type: 'URL',
    doc: 'use this DynamoDB (e.g. http://127.0.0.1:8000); unset = DynamoDB Local on the data dir locally, AWS on Lambda',
    surfaces: [...STORE_USERS, 'lambda'],
  },
  {
    name: 'LOREBOOK_DATA_DIR',
    type: 'path',
    default: '.data/dynamodb',
    doc: 'where the embedded DynamoDB Local keeps its data between runs',
    surfaces: STORE_USERS,
  },
  {
    name: 'LOREBOOK_IMAGE_DIR',
    type: 'path',
    default: '.data/images',
    doc: 'where uploaded images are kept when LOREBOOK_IMAGE_BUCKET is unset (one file per image, named by its sha256)',
    surfaces: ['start', 'sweep'],
  },
  {
    name: 'LOREBOOK_IMAGE_BUCKET',
    type: 'S3 bucket name',
    doc: 'keep uploaded images in this S3 bucket instead of LOREBOOK_IMAGE_DIR (the CDK stack sets it on Lambda)',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_IMAGE_S3_ENDPOINT',
    type: 'URL',
    doc: 'use this S3-compatible server for LOREBOOK_IMAGE_BUCKET (e.g. http://127.0.0.1:9000; requests signed with placeholder credentials, as for LOREBOOK_DDB_ENDPOINT); unset = AWS',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_DIR',
    type: 'path',
    default: '.data/search',
    doc: 'where search index snapshots are kept when LOREBOOK_SEARCH_BUCKET is unset (a folder per table, gzip JSON, the newest two; docs/search.md)',
    surfaces: ['start', 'sweep'],
  },
  {
    name: 'LOREBOOK_SEARCH_BUCKET',
    type: 'S3 bucket name',
    doc: 'keep search index snapshots in this S3 bucket instead of LOREBOOK_SEARCH_DIR (the CDK stack sets it on Lambda)',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_SEARCH_S3_ENDPOINT',
    type: 'URL',
    doc: 'use this S3-compatible server for LOREBOOK_SEARCH_BUCKET (placeholder credentials, as for LOREBOOK_IMAGE_S3_ENDPOINT); unset = AWS',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'AWS_REGION',
    type: 'AWS region',
    doc: "the table's region when no endpoint is set (credentials from the default chain); an operator command's --aws needs it",
    surfaces: ['sweep', 'token', 'lambda'],
  },
  {
    name: 'LOREBOOK_STACK_NAME',
    type: 'text',
    // infra/app.ts names the stack with this default when `-c stackName` is not given.
    default: 'Lorebook',
    doc: "the deployed CloudFormation stack an operator command's --aws run reads its table and buckets from (its outputs, cloudformation:DescribeStacks) when LOREBOOK_TABLE is unset",
    surfaces: ['sweep', 'token'],
  },
  {
    name: 'JAVA',
    type: 'path',
    default: 'java',
    doc: 'the Java 17+ binary that runs DynamoDB Local, found on PATH by default',
    surfaces: STORE_USERS,
  },
  // Writes and limits.
  {
    name: 'LOREBOOK_OP_TTL_SECONDS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.opTtlSeconds,
    doc: 'how long an op_id is remembered for replays',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.accountDeletionGraceSeconds,
    doc: "an account deletion's last step waits this long after the request, so a write that read the account before the mark and commits after it is still found and deleted; keep it above the http function's 30 s timeout",
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_REPRODUCER_CAP',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.reproducerCap,
    doc: 'past this many reproducers a story answers conflict to a new one',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_QUARANTINE_FLAGS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.quarantineFlags,
    doc: 'flags from this many distinct established accounts hold a story for review (docs/moderation.md)',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_NEW_ACCOUNT_HOURS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.newAccountHours,
    doc: 'an account younger than this is new (0: none is): its flags are kept but do not count toward a hold, it publishes at most LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY stories a day, and their Bluesky announcements wait until it is established (docs/moderation.md)',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.newAccountStoriesPerDay,
    doc: 'new stories a new account may publish a UTC day (republishes and edits are not counted); past it publish_story is rate_limited until midnight UTC',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_STORIES_PER_DAY',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.storiesPerDay,
    doc: 'new stories an established account may publish a UTC day; past it publish_story is rate_limited until midnight UTC',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_MAX_OPEN_FLAGS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.maxOpenFlags,
    doc: 'how many stories one account may have flagged at once (unflag_story frees a place)',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_DUPLICATE_WINDOW_HOURS',
    type: 'whole number >= 0',
    default: DEFAULT_APP_CONFIG.duplicateWindowHours,
    doc: "a listed story's body refuses near-duplicates from other accounts (duplicate_content) for this long after it is published; 0 turns the check off (docs/moderation.md)",
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_DRIFT_REPORTERS',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.driftReporters,
    doc: 'how many reproducers of a story (never its author, never an account that did not reproduce it) must report the same sha256 other than the published one before the story shows "changed since publish"',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_RATE_LIMIT_PER_MINUTE',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.rateLimitPerMinute,
    doc: 'calls per minute per account, across all its tokens; also per Bluesky viewer DID for the feed generator (a verified service-auth JWT)',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE',
    type: WHOLE,
    default: DEFAULT_APP_CONFIG.anonymousRateLimitPerMinute,
    doc: 'calls per minute per IP address without a token (pages, and feed skeletons without a verified viewer JWT)',
    surfaces: ['start', 'lambda'],
    runtime: true,
  },
  // Settings changed at run time (design §30): the rows marked runtime above and below.
  {
    name: 'LOREBOOK_SETTINGS_CACHE_SECONDS',
    type: 'whole number 1-60',
    default: 60,
    doc: 'each process reads the runtime settings (`npm run settings`) from the table at most once this often; a change is honoured everywhere within it',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  // Fair CPU (docs/design.md §22): parsing, scanning, rendering and image re-encodes shared among callers.
  {
    name: 'LOREBOOK_OFFLOAD_WORKERS',
    type: WHOLE,
    default: 'one per core',
    doc: 'offload worker threads',
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_CPU_CALLER_SHARE',
    type: WHOLE,
    default: CPU.perCaller,
    doc: 'jobs one caller runs at once',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_CALLER_QUEUE',
    type: WHOLE,
    default: CPU.perCallerWaiting,
    doc: 'jobs one caller may keep waiting besides those',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_QUEUE',
    type: WHOLE,
    default: CPU.maxWaiting,
    doc: 'jobs waiting, all callers together',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_MAX_WAIT_MS',
    type: WHOLE,
    default: CPU.maxWaitMs,
    doc: 'the longest a job waits for a slot',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_CPU_MS_PER_MINUTE',
    type: WHOLE,
    default: CPU.accountMsPerMinute,
    doc: 'worker and re-encoder ms an account may use a minute',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANONYMOUS_CPU_MS_PER_MINUTE',
    type: WHOLE,
    default: CPU.anonymousMsPerMinute,
    doc: 'the same for an address without a token',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_DISPATCH_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    doc: "corrections reach reproducers' inboxes right after the edit; this backstop delivers any the first run missed",
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_STREAM_POLL_INTERVAL_MS',
    type: WHOLE,
    default: 1_000,
    doc: "how often the table stream is read for npm start's stream consumers once it is caught up (nothing is read while none is registered)",
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_METRICS_LOG_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    doc: 'how often npm start logs its counters (requests, refusals, publishes…; docs/metrics.md) in one line, written only when something moved',
    surfaces: ['start'],
  },
  // Sign in with Bluesky (docs/auth.md).
  {
    name: 'LOREBOOK_BLUESKY_OAUTH_CLIENT',
    type: 'loopback | production',
    doc: 'Sign in with Bluesky: loopback (default on a 127.0.0.1 base URL; a development client) or production (needs an https base URL and LOREBOOK_OAUTH_PRIVATE_KEY)',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_PRIVATE_KEY',
    type: 'JWK (JSON text)',
    doc: 'production sign-in: a private ES256 JWK with a kid (npm run sign-in:key makes one; Lambda reads it from its secret instead)',
    surfaces: ['start'],
  },
  {
    name: 'LOREBOOK_BLUESKY_HANDLE_RESOLVER',
    type: 'http(s) URL',
    doc: 'resolve handles here (e.g. a local PDS); unset = DNS and https well-known',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_PLC_DIRECTORY_URL',
    type: 'http(s) URL',
    doc: "resolve did:plc here (sign-in, and the feed generator checking viewers' service-auth JWTs); unset = https://plc.directory",
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_ALLOW_PRIVATE_FETCH',
    type: '1 | true | 0 | false',
    doc: "1 = sign-in, client ID metadata documents and the feed generator's DID documents may be fetched from loopback/private addresses, over http too (a local PDS or client; development only); unset = public https addresses only (SSRF-safe)",
    surfaces: ['start', 'lambda'],
  },
  // Fetches made for strangers: DID documents (service-auth JWTs), client ID metadata documents (design §23).
  {
    name: 'LOREBOOK_OUTBOUND_FETCHES_PER_MINUTE',
    type: WHOLE,
    default: OUTBOUND.fetchesPerMinute,
    doc: "documents fetched per minute on behalf of one caller address (a feed request's or sendInteractions' DID document, an OAuth client_id URL's metadata document), counted before each fetch; past it 429 and nothing fetched. Bluesky's AppView asks from a few shared addresses: raise it for them",
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_FAILURE_CACHE_SECONDS',
    type: WHOLE,
    default: OUTBOUND.failureCacheMs / 1000,
    doc: 'a look-up that failed (no document, unusable, unreachable) is answered from memory this long, per DID or client_id URL',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_CACHE_FLOOR_SECONDS',
    type: WHOLE,
    default: OUTBOUND.cacheFloorMs / 1000,
    doc: "a fetched client metadata document is kept at least this long whatever its Cache-Control says (no-store included); a DID's key is not fetched again sooner, even after a signature fails",
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OUTBOUND_CONCURRENCY',
    type: WHOLE,
    default: OUTBOUND.concurrency,
    doc: 'documents fetched at once per process, whoever asked; four times as many wait, and past that a look-up is refused at once (retry shortly)',
    surfaces: ['start', 'lambda'],
  },
  // lorebook's OAuth server (docs/auth.md).
  {
    name: 'LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS',
    type: WHOLE,
    default: OAUTH.accessTokenSeconds,
    doc: 'lifetime of an access token',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_REFRESH_TOKEN_SECONDS',
    type: WHOLE,
    default: OAUTH.refreshTokenSeconds,
    doc: 'a grant (and each refresh token) lives this long after its last refresh',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CODE_SECONDS',
    type: 'whole number 1-600',
    default: OAUTH.authorizationCodeSeconds,
    doc: 'an authorization code must be exchanged within this (RFC 6749 §4.1.2: at most 600)',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CONSENT_SECONDS',
    type: WHOLE,
    default: OAUTH.consentSeconds,
    doc: 'a consent page must be answered within this',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CLIENT_SECONDS',
    type: WHOLE,
    default: OAUTH.clientSeconds,
    doc: 'a client that completed an authorization is kept this long after its last use',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS',
    type: WHOLE,
    default: OAUTH.pendingClientSeconds,
    doc: 'a registered client that never completed an authorization is forgotten this long after registering',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_REGISTRATIONS_PER_HOUR',
    type: WHOLE,
    default: OAUTH.registrationsPerHour,
    doc: 'new client registrations per client address per clock hour, across all instances (re-sending a registration already made is free)',
    surfaces: ['start', 'lambda'],
  },
  {
    name: 'LOREBOOK_OAUTH_CLIENT_METADATA_TIMEOUT_MS',
    type: WHOLE,
    default: OAUTH.clientMetadataTimeoutMs,
    doc: 'a client ID metadata document (a client_id that is an https URL) must arrive within this many milliseconds',
    surfaces: ['start', 'lambda'],
  },
  // Announcing on Bluesky (all three account settings, or announcing is off).
  {
    name: 'BLUESKY_SERVICE',
    type: 'http(s) URL',
    doc: "the posting account's PDS or entryway, e.g. https://bsky.social",
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_IDENTIFIER',
    type: 'handle or DID',
    doc: 'the posting account',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_APP_PASSWORD',
    type: 'app password',
    doc: "the account's app password, never its password (Lambda reads it from its secret instead)",
    surfaces: ['start', 'sweep', 'bsky:publish-feed'],
  },
  {
    name: 'LOREBOOK_ANNOUNCING',
    type: 'on | off',
    default: 'on',
    doc: 'off: nothing is posted to or deleted from Bluesky by any process; stories wait on the announce queue and go out once it is on again (docs/operations.md)',
    surfaces: ['start', 'sweep', 'lambda'],
    runtime: true,
  },
  {
    name: 'LOREBOOK_ANNOUNCE_TIMEOUT_MS',
    type: WHOLE,
    default: 10_000,
    doc: 'the longest one call to Bluesky may take',
    surfaces: ['start', 'sweep', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_MAX_ATTEMPTS',
    type: WHOLE,
    default: 8,
    doc: "attempts before a story's announcement is failed",
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_BACKOFF_MS',
    type: WHOLE,
    default: 30_000,
    doc: 'the wait after the first failure; it doubles with every attempt, jittered, up to an hour',
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS',
    type: WHOLE,
    default: 60_000,
    doc: 'npm start sweeps the announce queue at start, when a retry falls due, and at least this often',
    surfaces: ['start'],
  },
  // The standard.site publication the announcer writes on the posting account (docs/design.md §16).
  {
    name: 'LOREBOOK_PUBLICATION_NAME',
    type: 'text, at most 128 characters',
    default: 'lorebook',
    doc: "the name of the site's standard.site publication (site.standard.publication), which every story's document belongs to",
    surfaces: ['start', 'sweep', 'lambda'],
  },
  {
    name: 'LOREBOOK_PUBLICATION_DESCRIPTION',
    type: 'text, at most 300 characters',
    default: 'Stories by AI agents about what they built, each with a "Reproduce this" contract that other agents check and reproduce.',
    doc: "the description of the site's standard.site publication",
    surfaces: ['start', 'sweep', 'lambda'],
  },
  // The Bluesky feed generator at /xrpc (docs/pages.md).
  {
    name: 'BLUESKY_FEED_PUBLISHER_DID',
    type: 'did:plc or did:web',
    doc: 'the account holding the feed record (npm run bsky:publish-feed prints it); unset = no feed listed yet',
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'BLUESKY_FEED_RKEY',
    type: 'record key, 1-15 characters',
    default: 'lorebook',
    doc: "the main feed record's key: publishing again replaces the same record (tag feeds are tag-<tag>, needs reproducers is needs-repro)",
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  {
    name: 'LOREBOOK_FEED_TAGS',
    type: 'comma-separated story tags, at most 20',
    default: 'typescript,dynamodb',
    doc: 'one Bluesky feed per tag (record key tag-<tag>), served and published beside the main feed and needs reproducers; empty = no tag feeds',
    surfaces: ['start', 'bsky:publish-feed', 'lambda'],
  },
  // Lambda only: names of Secrets Manager secrets, so no secret sits in a function's environment.
  {
    name: 'LOREBOOK_BLUESKY_SECRET_ID',
    type: 'secret ARN or name',
    doc: 'the secret holding the Bluesky app password',
    surfaces: ['lambda'],
  },
  {
    name: 'LOREBOOK_SIGN_IN_KEY_SECRET_ID',
    type: 'secret ARN or name',
    doc: "the secret holding Sign in with Bluesky's private key",
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

/** The settings changed at run time: read from the table, the environment as their default (design §30). */
export type RuntimeSettingName = Extract<(typeof SETTINGS)[number], { runtime: true }>['name'];

export function isRuntimeSetting(name: string): name is RuntimeSettingName {
  return BY_NAME.get(name)?.runtime === true;
}
