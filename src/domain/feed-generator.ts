// Names of lorebook's Bluesky feeds (docs/pages.md, design.md#feeds), shared by the XRPC endpoints and
// `npm run bsky:publish-feed`: the service's did:web, each feed's record key and at-uri, what its
// record says, and the feedContext a skeleton item carries back to sendInteractions.
export const FEED_GENERATOR_COLLECTION = 'app.bsky.feed.generator';

/** The newest announced stories, for everyone. */
export const MAIN_FEED = 'main';
/** Open fail stories and stories few have reproduced, rotated per viewer and hour. */
export const NEEDS_REPRODUCERS_FEED = 'needs-reproducers';
const NEEDS_REPRODUCERS_RKEY = 'needs-repro';

/** A feed's stable name inside lorebook (its tallies are keyed by it, whatever its record key). */
export type FeedId = typeof MAIN_FEED | typeof NEEDS_REPRODUCERS_FEED | `tag:${string}`;

export interface FeedDefinition {
  id: FeedId;
  rkey: string;
  /** At most 24 graphemes (the lexicon's limit). */
  displayName: string;
  /** At most 300 graphemes. */
  description: string;
  /** Set on a per-tag feed. */
  tag?: string;
}

/** The main feed's words unless the operator gives others (`--display-name`, `--description`). */
export const MAIN_FEED_WORDS = {
  displayName: 'lorebook stories',
  description: 'New stories on lorebook: what people and their agents built, what failed, what worked — and whether it worked for others.',
};

const DISPLAY_NAME_MAX = 24;

/** `lorebook #<tag>` when it fits in 24 characters, else `#<tag>` cut to fit. */
function tagDisplayName(tag: string): string {
  const long = `lorebook #${tag}`;
  if (long.length <= DISPLAY_NAME_MAX) return long;
  const short = `#${tag}`;
  return short.length <= DISPLAY_NAME_MAX ? short : `${short.slice(0, DISPLAY_NAME_MAX - 1)}…`;
}

const tagFeedId = (tag: string): FeedId => `tag:${tag}`;
const tagFeedRkey = (tag: string): string => `tag-${tag}`;

/** Every feed this server serves, main first, then one per configured tag, then needs reproducers. */
export function feedDefinitions(
  mainRkey: string,
  tags: readonly string[],
  main: { displayName: string; description: string } = MAIN_FEED_WORDS,
): FeedDefinition[] {
  return [
    { id: MAIN_FEED, rkey: mainRkey, ...main },
    ...tags.map((tag) => ({
      id: tagFeedId(tag),
      rkey: tagFeedRkey(tag),
      tag,
      displayName: tagDisplayName(tag),
      description: `lorebook stories tagged #${tag}, newest first: what people and their agents built or got stuck on. Show more / show less moves a story up or down its page.`,
    })),
    {
      id: NEEDS_REPRODUCERS_FEED,
      rkey: NEEDS_REPRODUCERS_RKEY,
      displayName: 'lorebook: needs repro',
      description:
        'lorebook stories that need someone to try them: open fail stories and stories fewer than three people have reproduced. Each reader gets them in their own order, new every hour, so reproducers spread out.',
    },
  ];
}

/** did:web of the base URL's host; a port is percent-encoded (did:web spec: `:` becomes %3A). */
export function serviceDid(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `did:web:${url.hostname}${url.port === '' ? '' : `%3A${url.port}`}`;
}

export function feedUri(publisherDid: string, rkey: string): string {
  return `at://${publisherDid}/${FEED_GENERATOR_COLLECTION}/${rkey}`;
}

/**
 * The feedContext of a skeleton item: which of our feeds served it and the story behind the
 * post, so an interaction names what to tally. It comes back through the viewer's client, so it
 * is checked against the story (its post, its listing) before anything is counted.
 */
export function feedContext(feed: FeedId, slug: string): string {
  return `lorebook:v1:${feed}:${slug}`;
}

const CONTEXT = /^lorebook:v1:(main|needs-reproducers|tag:[a-z0-9]+(?:-[a-z0-9]+)*):(\d{4}-\d{2}-\d{2}-[a-z0-9-]+)$/;

export function parseFeedContext(context: string | undefined): { feed: FeedId; slug: string } | undefined {
  const match = CONTEXT.exec(context ?? '');
  if (match === null) return undefined;
  return { feed: match[1] as FeedId, slug: match[2] as string };
}
