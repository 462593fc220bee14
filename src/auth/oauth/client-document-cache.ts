// Client ID metadata documents kept by their HTTP cache headers (RFC 9111, the parts that matter
// here): `max-age` says how long a document is fresh, `no-store` and `no-cache` ask for a fetch
// every time, and an `ETag` lets a stale one be revalidated with If-None-Match. Whatever the
// headers say, a document is kept at least the outbound cache floor (design.md#admission: a client's
// no-store must not make every authorize a fetch) and at most MAX_AGE_MS (a client that changed
// its document is seen within it). Failed look-ups are kept too, in a cache of their own. Bounded
// in entries (the least recently used goes first), so strangers' URLs cannot fill memory.

export const MAX_ENTRIES = 1000;
/** The longest a document is trusted without asking again, whatever its max-age. */
export const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Freshness of a document that says nothing about caching. */
export const DEFAULT_AGE_MS = 5 * 60 * 1000;

export interface CachedDocument {
  /** The document, as fetched (validated again on every use). */
  body: unknown;
  etag?: string;
  /** Epoch ms; past it the entry is only good for revalidation. */
  freshUntil: number;
}

/** A look-up that failed, and the refusal it gave. */
export interface CachedFailure {
  error: unknown;
  /** Epoch ms; past it the URL is fetched again. */
  until: number;
}

/** How long an answer with these headers may be used, in ms, never less than `floorMs` nor more than MAX_AGE_MS. */
export function freshnessMs(cacheControl: string | null, floorMs: number): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  const maxAge = directives.map((directive) => /^max-age=(\d+)$/.exec(directive)?.[1]).find((value) => value !== undefined);
  const asked =
    directives.includes('no-store') || directives.includes('no-cache') ? 0 : maxAge === undefined ? DEFAULT_AGE_MS : Number(maxAge) * 1000;
  return Math.min(Math.max(asked, floorMs), MAX_AGE_MS);
}

export class ClientDocumentCache<Entry = CachedDocument> {
  /** Map keeps insertion order: re-inserting on use makes the first key the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;

  constructor(maxEntries = MAX_ENTRIES) {
    this.maxEntries = maxEntries;
  }

  get(url: string): Entry | undefined {
    const entry = this.entries.get(url);
    if (entry === undefined) return undefined;
    this.entries.delete(url);
    this.entries.set(url, entry);
    return entry;
  }

  set(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.entries.set(url, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  delete(url: string): void {
    this.entries.delete(url);
  }

  get size(): number {
    return this.entries.size;
  }
}
