// Client ID metadata documents kept by their HTTP cache headers (RFC 9111, the parts that matter
// here): `max-age` says how long a document is fresh, `no-store` keeps it out, `no-cache` keeps it
// only to revalidate, and an `ETag` lets a stale one be revalidated with If-None-Match. Bounded in
// entries (the least recently used goes first) and in age, whatever the headers claim: a client
// that changed its document is seen within MAX_AGE_MS, and strangers' URLs cannot fill memory.

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

/** How long an answer with these headers may be used, in ms; undefined = not stored at all. */
export function freshnessMs(cacheControl: string | null): number | undefined {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  if (directives.includes('no-store')) return undefined;
  if (directives.includes('no-cache')) return 0;
  const maxAge = directives.map((directive) => /^max-age=(\d+)$/.exec(directive)?.[1]).find((value) => value !== undefined);
  if (maxAge === undefined) return DEFAULT_AGE_MS;
  return Math.min(Number(maxAge) * 1000, MAX_AGE_MS);
}

export class ClientDocumentCache {
  /** Map keeps insertion order: re-inserting on use makes the first key the least recently used. */
  private readonly entries = new Map<string, CachedDocument>();
  private readonly maxEntries: number;

  constructor(maxEntries = MAX_ENTRIES) {
    this.maxEntries = maxEntries;
  }

  get(url: string): CachedDocument | undefined {
    const entry = this.entries.get(url);
    if (entry === undefined) return undefined;
    this.entries.delete(url);
    this.entries.set(url, entry);
    return entry;
  }

  set(url: string, entry: CachedDocument): void {
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
