// Names of lorebook's Bluesky feed generator (docs/pages.md), shared by the XRPC endpoints and
// `npm run bsky:publish-feed`: the service's did:web and the feed record's at-uri.
export const FEED_GENERATOR_COLLECTION = 'app.bsky.feed.generator';

/** did:web of the base URL's host; a port is percent-encoded (did:web spec: `:` becomes %3A). */
export function serviceDid(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `did:web:${url.hostname}${url.port === '' ? '' : `%3A${url.port}`}`;
}

export function feedUri(publisherDid: string, rkey: string): string {
  return `at://${publisherDid}/${FEED_GENERATOR_COLLECTION}/${rkey}`;
}
