// What the announcer needs from a social network, and nothing more: find the post at a story's
// record key, create it there, delete it. integrations/bluesky implements it; tests may too.
// Failures arrive as AnnounceFailure, already sorted into what the announcer decides on.

/** Everything a post about a story is made from. `slug` and `publishedAt` never change. */
export interface StoryPost {
  slug: string;
  /** First-publish time (ISO): with the slug, it fixes the record key. */
  publishedAt: string;
  title: string;
  summary: string;
  authorHandle: string;
  tags: readonly string[];
  /** The story's page: the link card's target, and how a found record is recognised as ours. */
  url: string;
  /** Optional link-card image. */
  thumb?: { data: Uint8Array; mimeType: string };
}

/** A record found at a story's record key. */
export interface ExistingPost {
  uri: string;
  /** Every URL the record links to (link card and link facets). */
  links: readonly string[];
}

export interface AnnouncePort {
  /** For log lines: which service and account. */
  readonly describe: string;
  /** The record at the story's record key, or undefined when there is none. */
  find(post: StoryPost): Promise<ExistingPost | undefined>;
  /** Creates the post at the story's record key; answers its at-uri. */
  create(post: StoryPost): Promise<{ uri: string }>;
  /** Deletes the record at the story's record key; deleting nothing is fine. */
  remove(post: Pick<StoryPost, 'slug' | 'publishedAt'>): Promise<void>;
}

/**
 * - `unreachable`, `timeout`, `server`: retry later (after a timeout or a lost answer the post
 *   may exist: the next attempt looks before it posts).
 * - `rate_limited`: retry no sooner than `retryAfterMs`.
 * - `credentials`: the account refused the app password; retrying cannot help.
 * - `rejected`: the service refused this post (a 4xx); retrying the same post cannot help.
 */
export type AnnounceFailureKind = 'unreachable' | 'timeout' | 'server' | 'rate_limited' | 'credentials' | 'rejected';

/** Thrown by an AnnouncePort when a call failed; `message` is what `last_error` shows. */
export class AnnounceFailure extends Error {
  readonly kind: AnnounceFailureKind;
  readonly retryAfterMs: number | undefined;

  constructor(kind: AnnounceFailureKind, message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AnnounceFailure';
    this.kind = kind;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Retrying the same post later cannot succeed without someone changing something. */
  get permanent(): boolean {
    return this.kind === 'credentials' || this.kind === 'rejected';
  }
}
