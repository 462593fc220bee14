// One line of documentation per setting of the settings table (settings-table.ts): what it
// changes. Kept apart so what the servers load at start is the table without its prose; the type
// makes a setting without a line, or a line for no setting, a compile error.
import type { SettingName } from './settings-table.ts';

export const SETTING_DOCS: Readonly<Record<SettingName, string>> = {
  PORT: "the server's port, on 127.0.0.1 only",
  LOREBOOK_BASE_URL:
    'the public base URL: links (story_url in publish and edit answers included), OAuth metadata and Host checks use it; on Lambda the Function URL by default',
  LOREBOOK_ALLOWED_ORIGINS: 'web origins (scheme://host[:port]) allowed to call from a browser; unset = none',
  LOREBOOK_SEARCH_REFRESH_MS:
    "the longest a search answers without first reading the search change log (other instances' writes reach search within about this long, docs/search.md)",
  LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES:
    "how many changes the search snapshot job leaves to the instances' replay of the change log before it loads and writes the snapshot again (a load of 100k stories costs ~24 s of CPU; an instance re-reads the entries at its first search); 0 = after every change, and a day-old snapshot is written again whatever the count",
  LOREBOOK_TABLE:
    "the DynamoDB table name; an operator command's --aws run without it reads the TableName output of the stack LOREBOOK_STACK_NAME",
  LOREBOOK_DDB_ENDPOINT: 'use this DynamoDB (e.g. http://127.0.0.1:8000); unset = DynamoDB Local on the data dir locally, AWS on Lambda',
  LOREBOOK_DATA_DIR: 'where the embedded DynamoDB Local keeps its data between runs',
  LOREBOOK_IMAGE_DIR: 'where uploaded images are kept when LOREBOOK_IMAGE_BUCKET is unset (one file per image, named by its sha256)',
  LOREBOOK_IMAGE_BUCKET: 'keep uploaded images in this S3 bucket instead of LOREBOOK_IMAGE_DIR (the CDK stack sets it on Lambda)',
  LOREBOOK_IMAGE_S3_ENDPOINT:
    'use this S3-compatible server for LOREBOOK_IMAGE_BUCKET (e.g. http://127.0.0.1:9000; requests signed with placeholder credentials, as for LOREBOOK_DDB_ENDPOINT); unset = AWS',
  LOREBOOK_SEARCH_DIR:
    'where search index snapshots are kept when LOREBOOK_SEARCH_BUCKET is unset (a folder per table, gzip JSON, the newest two; docs/search.md)',
  LOREBOOK_SEARCH_BUCKET: 'keep search index snapshots in this S3 bucket instead of LOREBOOK_SEARCH_DIR (the CDK stack sets it on Lambda)',
  LOREBOOK_SEARCH_S3_ENDPOINT:
    'use this S3-compatible server for LOREBOOK_SEARCH_BUCKET (placeholder credentials, as for LOREBOOK_IMAGE_S3_ENDPOINT); unset = AWS',
  AWS_REGION: "the table's region when no endpoint is set (credentials from the default chain); an operator command's --aws needs it",
  LOREBOOK_STACK_NAME:
    "the deployed CloudFormation stack an operator command's --aws run reads its table and buckets from (its outputs, cloudformation:DescribeStacks) when LOREBOOK_TABLE is unset",
  JAVA: 'the Java 17+ binary that runs DynamoDB Local, found on PATH by default',
  LOREBOOK_OP_TTL_SECONDS: 'how long an op_id is remembered for replays',
  LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS:
    "an account deletion's last step waits this long after the request, so a write that read the account before the mark and commits after it is still found and deleted; keep it above the http function's 30 s timeout",
  LOREBOOK_REPRODUCER_CAP: 'past this many reproducers a story answers conflict to a new one',
  LOREBOOK_QUARANTINE_FLAGS: 'flags from this many distinct established accounts hold a story for review (docs/moderation.md)',
  LOREBOOK_NEW_ACCOUNT_HOURS:
    'an account younger than this is new (0: none is): its flags are kept but do not count toward a hold, it publishes at most LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY stories a day, and their Bluesky announcements wait until it is established (docs/moderation.md)',
  LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY:
    'new stories a new account may publish a UTC day (republishes and edits are not counted); past it publish_story is rate_limited until midnight UTC',
  LOREBOOK_STORIES_PER_DAY:
    'new stories an established account may publish a UTC day; past it publish_story is rate_limited until midnight UTC',
  LOREBOOK_MAX_OPEN_FLAGS: 'how many stories one account may have flagged at once (unflag_story frees a place)',
  LOREBOOK_DUPLICATE_WINDOW_HOURS:
    "a listed story's body refuses near-duplicates from other accounts (duplicate_content) for this long after it is published; 0 turns the check off (docs/moderation.md)",
  LOREBOOK_DRIFT_REPORTERS:
    'how many reproducers of a story (never its author, never an account that did not reproduce it) must report the same sha256 other than the published one before the story shows "changed since publish"',
  LOREBOOK_RATE_LIMIT_PER_MINUTE:
    'calls per minute per account, across all its tokens; also per Bluesky viewer DID for the feed generator (a verified service-auth JWT)',
  LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE:
    'calls per minute per IP address without a token (pages, and feed skeletons without a verified viewer JWT)',
  LOREBOOK_SETTINGS_CACHE_SECONDS:
    'each process reads the runtime settings (`npm run settings`) from the table at most once this often; a change is honoured everywhere within it',
  LOREBOOK_OFFLOAD_WORKERS: 'offload worker threads',
  LOREBOOK_CPU_CALLER_SHARE: 'jobs one caller runs at once',
  LOREBOOK_CPU_CALLER_QUEUE: "jobs one caller may keep waiting besides those; also its questions waiting for the search index's turn",
  LOREBOOK_REFUSAL_HOLD_MS:
    'a request refused 401 with a body over 512 KiB still unread, or 429 with any of its body unread, is answered after this long (a 429 at most its retry_after_ms, less the time held), reading nothing meanwhile, then closed',
  LOREBOOK_REFUSAL_HOLD_PER_ADDRESS: 'refused requests held at once per client address; past it a new one is closed unanswered',
  LOREBOOK_REFUSAL_HOLD_TOTAL: 'refused requests held at once from all addresses; past it a new one is closed unanswered',
  LOREBOOK_CPU_QUEUE: 'jobs waiting, all callers together; the search index has a queue of its own this long',
  LOREBOOK_CPU_MAX_WAIT_MS: "the longest a job waits for a slot, and a question for the search index's turn and then for its answer",
  LOREBOOK_CPU_MS_PER_MINUTE: 'worker and re-encoder ms an account may use a minute',
  LOREBOOK_ANONYMOUS_CPU_MS_PER_MINUTE: 'the same for an address without a token',
  LOREBOOK_DISPATCH_INTERVAL_MS:
    "corrections reach reproducers' inboxes right after the edit; this backstop delivers any the first run missed",
  LOREBOOK_STREAM_POLL_INTERVAL_MS:
    "how often the table stream is read for npm start's stream consumers once it is caught up (nothing is read while none is registered)",
  LOREBOOK_METRICS_LOG_INTERVAL_MS:
    'how often npm start logs its counters (requests, refusals, publishes…; docs/metrics.md) in one line, written only when something moved',
  LOREBOOK_BLUESKY_OAUTH_CLIENT:
    'Sign in with Bluesky: loopback (default on a 127.0.0.1 base URL; a development client) or production (needs an https base URL and LOREBOOK_OAUTH_PRIVATE_KEY)',
  LOREBOOK_OAUTH_PRIVATE_KEY:
    'production sign-in: a private ES256 JWK with a kid (npm run sign-in:key makes one; Lambda reads it from its secret instead)',
  LOREBOOK_BLUESKY_HANDLE_RESOLVER: 'resolve handles here (e.g. a local PDS); unset = DNS and https well-known',
  LOREBOOK_PLC_DIRECTORY_URL:
    "resolve did:plc here (sign-in, and the feed generator checking viewers' service-auth JWTs); unset = https://plc.directory",
  LOREBOOK_ALLOW_PRIVATE_FETCH:
    "1 = sign-in, client ID metadata documents and the feed generator's DID documents may be fetched from loopback/private addresses, over http too (a local PDS or client; development only); unset = public https addresses only (SSRF-safe)",
  LOREBOOK_OUTBOUND_FETCHES_PER_MINUTE:
    "documents fetched per minute on behalf of one caller address (a feed request's or sendInteractions' DID document, an OAuth client_id URL's metadata document), counted before each fetch; past it 429 and nothing fetched. Bluesky's AppView asks from a few shared addresses: raise it for them",
  LOREBOOK_OUTBOUND_FAILURE_CACHE_SECONDS:
    'a look-up that failed (no document, unusable, unreachable) is answered from memory this long, per DID or client_id URL',
  LOREBOOK_OUTBOUND_CACHE_FLOOR_SECONDS:
    "a fetched client metadata document is kept at least this long whatever its Cache-Control says (no-store included); a DID's key is not fetched again sooner, even after a signature fails",
  LOREBOOK_OUTBOUND_CONCURRENCY:
    'documents fetched at once per process, whoever asked; four times as many wait, and past that a look-up is refused at once (retry shortly)',
  LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS: 'lifetime of an access token',
  LOREBOOK_OAUTH_REFRESH_TOKEN_SECONDS: 'a grant (and each refresh token) lives this long after its last refresh',
  LOREBOOK_OAUTH_CODE_SECONDS: 'an authorization code must be exchanged within this (RFC 6749 §4.1.2: at most 600)',
  LOREBOOK_OAUTH_CONSENT_SECONDS: 'a consent page must be answered within this',
  LOREBOOK_OAUTH_CLIENT_SECONDS: 'a client that completed an authorization is kept this long after its last use',
  LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS:
    'a registered client that never completed an authorization is forgotten this long after registering',
  LOREBOOK_OAUTH_REGISTRATIONS_PER_HOUR:
    'new client registrations per client address per clock hour, across all instances (re-sending a registration already made is free)',
  LOREBOOK_OAUTH_CLIENT_METADATA_TIMEOUT_MS:
    'a client ID metadata document (a client_id that is an https URL) must arrive within this many milliseconds',
  BLUESKY_SERVICE: "the posting account's PDS or entryway, e.g. https://bsky.social",
  BLUESKY_IDENTIFIER: 'the posting account',
  BLUESKY_APP_PASSWORD: "the account's app password, never its password (Lambda reads it from its secret instead)",
  LOREBOOK_ANNOUNCING:
    'off: nothing is posted to or deleted from Bluesky by any process; stories wait on the announce queue and go out once it is on again (docs/operations.md)',
  LOREBOOK_ANNOUNCE_TIMEOUT_MS: 'the longest one call to Bluesky may take',
  LOREBOOK_ANNOUNCE_MAX_ATTEMPTS: "attempts before a story's announcement is failed",
  LOREBOOK_ANNOUNCE_BACKOFF_MS: 'the wait after the first failure; it doubles with every attempt, jittered, up to an hour',
  LOREBOOK_ANNOUNCE_MAX_AGE_HOURS:
    'a story owed its announcement longer than this when announcing (re)starts is set aside, not posted (announce state skipped, reason too_old); npm run sweep -- --backlog posts it (docs/operations.md)',
  LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS: 'npm start sweeps the announce queue at start, when a retry falls due, and at least this often',
  LOREBOOK_PUBLICATION_NAME:
    "the name of the site's standard.site publication (site.standard.publication), which every story's document belongs to",
  LOREBOOK_PUBLICATION_DESCRIPTION: "the description of the site's standard.site publication",
  BLUESKY_FEED_PUBLISHER_DID: 'the account holding the feed record (npm run bsky:publish-feed prints it); unset = no feed listed yet',
  BLUESKY_FEED_RKEY:
    "the main feed record's key: publishing again replaces the same record (tag feeds are tag-<tag>, needs reproducers is needs-repro)",
  LOREBOOK_FEED_TAGS:
    'one Bluesky feed per tag (record key tag-<tag>), served and published beside the main feed and needs reproducers; empty = no tag feeds',
  LOREBOOK_BLUESKY_SECRET_ID: 'the secret holding the Bluesky app password',
  LOREBOOK_SIGN_IN_KEY_SECRET_ID: "the secret holding Sign in with Bluesky's private key",
  LOREBOOK_ORIGIN_SECRET_ID:
    'the secret CloudFront sends in x-lorebook-origin-secret (-c domainName): only a request carrying it has its CloudFront-Viewer-Address believed',
};
