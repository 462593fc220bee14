// Bluesky (atproto) for lorebook: announcing stories as posts. See docs/design.md §4.
export { createBlueskyClient, type BlueskyClient, type BlueskyOptions } from './bluesky-client.ts';
export { boundedFetch } from './bounded-fetch.ts';
export { retryAfter, toAnnounceFailure } from './failures.ts';
export { MAX_POST_GRAPHEMES, hashtag, linksOf, postRecord, postText, withoutUnresolvedMentions } from './post-record.ts';
export { decodeTid, encodeTid, storyRecordKey } from './record-key.ts';
