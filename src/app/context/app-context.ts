// What every use case receives. Built once per process (src/context.ts) or per test suite; use
// cases never read env or construct clients themselves.

import type { Scope } from '../../auth/oauth/scopes.ts';
import type { CpuSlots } from '../../offload/cpu-slots.ts';
import type { ImageBlobs } from '../../store/image/blobs.ts';
import type { SearchSnapshots } from '../../store/search/search-snapshots.ts';
import type { Store } from '../../store/store.ts';
import type { MetricsSink } from './metrics.ts';
import type { VerifiedTokens } from './verified-tokens.ts';

export interface AppConfig {
  /** How long an op_id is remembered (docs/design.md#write-rules: 24 h, configurable). */
  opTtlSeconds: number;
  /** Past this many reproducers a story answers `conflict` instead of growing META toward 400 KB. */
  reproducerCap: number;
  /** Reproducers of a story who must report the same other sha256 before it is "changed since publish" (design.md#drift). */
  driftReporters: number;
  /** Re-plans after a cancelled transaction before answering a retryable `conflict`. */
  maxWriteAttempts: number;
  /** Base of the jittered wait after a TransactionConflict, in ms. */
  conflictBackoffMs: number;
  /** Calls per minute per account, across all its tokens and server instances (docs/design.md#surfaces). */
  rateLimitPerMinute: number;
  /** Calls per minute per IP address for calls without a token. */
  anonymousRateLimitPerMinute: number;
  /** The public base URL (LOREBOOK_BASE_URL): write answers carry the story page's absolute URL on it. */
  publicBaseUrl: string;
  /** An account deletion finishes no sooner than this after it was accepted: longer than any write attempt (design.md#account-deletion). */
  accountDeletionGraceSeconds: number;
  /** Counted flags (from distinct established accounts) that quarantine a story (docs/moderation.md). */
  quarantineFlags: number;
  /** An account younger than this many hours is new: its flags are kept but not counted. */
  newAccountHours: number;
  /** How many stories one account may have flagged at once; unflag_story frees a place. */
  maxOpenFlags: number;
  /** How long a listed story's body holds off near-duplicates from other accounts (design.md#spam-waves); 0 = no check. */
  duplicateWindowHours: number;
  /** First publishes an established account may make a UTC day (design.md#new-accounts). */
  storiesPerDay: number;
  /** First publishes a new account may make a UTC day. */
  newAccountStoriesPerDay: number;
  /** Off: nothing is posted to or deleted from Bluesky; the announce queue keeps the work (LOREBOOK_ANNOUNCING, design.md#settings). */
  announcing: boolean;
  /**
   * A never-tried announcement owed longer than this when a sweep reaches it (announcing was off,
   * or had no credentials) is set aside, not posted: `npm run sweep -- --backlog` posts it (design.md#announcing-resumes).
   */
  announceMaxAgeHours: number;
  /**
   * New search log entries the snapshot job leaves to the instances' replay before it loads and
   * writes the snapshot again (design.md#search); 0 writes after every change.
   */
  searchSnapshotAfterEntries: number;
}

export const DEFAULT_APP_CONFIG: AppConfig = {
  opTtlSeconds: 24 * 60 * 60,
  reproducerCap: 10_000,
  driftReporters: 2,
  maxWriteAttempts: 6,
  conflictBackoffMs: 25,
  rateLimitPerMinute: 100,
  anonymousRateLimitPerMinute: 60,
  publicBaseUrl: 'http://127.0.0.1:8787',
  accountDeletionGraceSeconds: 60,
  quarantineFlags: 3,
  newAccountHours: 24,
  maxOpenFlags: 20,
  duplicateWindowHours: 7 * 24,
  storiesPerDay: 20,
  newAccountStoriesPerDay: 3,
  announcing: true,
  announceMaxAgeHours: 48,
  searchSnapshotAfterEntries: 200,
};

export interface AppContext {
  store: Store;
  config: AppConfig;
  /** Where uploaded images live (docs/design.md#images): a directory under `npm start`, S3 in the cloud; absent = no uploads. */
  images?: ImageBlobs;
  /**
   * Where search index snapshots live (docs/design.md#search): a directory under `npm start`, S3 in
   * the cloud; absent = an instance builds its index from the feed at its first search.
   */
  searchSnapshots?: SearchSnapshots;
  /** Waits between re-plans; injectable so tests of the conflict path need not sleep. */
  sleep(ms: number): Promise<void>;
  /** Random in [0, 1) for jitter. */
  random(): number;
  /**
   * Set when announcing is on: starts an announcement attempt for a story whose write has just
   * committed. Never awaited and never throws: the announce queue, written in the same
   * transaction as the story, guarantees the announcement even when this attempt is lost.
   */
  announceSoon?: (slug: string) => void;
  /**
   * Set where no table stream delivers outbox events (`npm start`): starts a run of the
   * notification dispatcher for an outbox event a write has just committed. Never awaited and
   * never throws: the event itself guarantees the delivery, through the periodic backstop.
   */
  dispatchSoon?: () => void;
  /**
   * Tokens this process has read and trusts for a bounded time (verified-tokens.ts).
   * Absent: every call reads its token from the store.
   */
  verifiedTokens?: VerifiedTokens<VerifiedToken>;
  /**
   * Set per call by the admission (src/http/admission.ts) when the call's rate-limit count runs
   * beside it: awaited before the write loop sends its transaction, and throws `rate_limited`
   * when the count refused the call, so a refused call writes nothing.
   */
  beforeCommit?: () => Promise<void>;
  /**
   * Reads the runtime settings from the table into `config` when the values held are older than
   * the settings cache period (design.md#settings); resolves at once otherwise. Called before a request
   * and before any Bluesky work. Absent: `config` is as built.
   */
  refreshSettings?: () => Promise<void>;
  /** The offload workers and the image re-encoder, shared among callers (docs/design.md#fair-cpu); absent = the process's defaults. */
  cpu?: CpuSlots;
  /**
   * Set per call by the routes: whose share of `cpu` the call's parsing, scanning, rendering and
   * re-encoding take, keyed as the rate limiter keys the call (`account:<id>`, else `ip:<address>`).
   * Absent: the process's own work, never refused for load.
   */
  cpuCaller?: string;
  /** Where requests, refusals, publishes and the rest are counted (./metrics.ts); absent = nothing counted. */
  metrics?: MetricsSink;
}

/** The authenticated caller. `account` is the stable id every per-person key uses. */
export interface Caller {
  account: string;
  handle: string;
  /** The client the token was issued to (e.g. an MCP client), when known; display and logs only. */
  client?: string;
  /**
   * What the token may do (src/auth/oauth/scopes.ts); absent = every scope (admin and device
   * tokens, OAuth tokens asked without a scope).
   */
  scopes?: readonly Scope[];
}

/** A token as authenticate read it: who calls with it, where it may be used, until when. */
export interface VerifiedToken {
  caller: Caller;
  /** The resource an OAuth token is bound to (RFC 8707); absent = every resource. */
  resource?: string;
  /** The token's own expiry, epoch seconds. */
  expiresAt: number;
  /** When the token was created: a token from before its account was deleted and made again is refused (design.md#account-deletion). */
  createdAt: string;
}
