// Bluesky (atproto) for lorebook: announcing stories as posts (docs/design.md#announcement) and as
// standard.site documents (design.md#standard-site).
export { type BlueskyClient, type BlueskyOptions, createBlueskyClient } from './bluesky-client.ts';
export { boundedFetch } from './bounded-fetch.ts';
export { retryAfter, toAnnounceFailure } from './failures.ts';
export { hashtag, linksOf, MAX_POST_GRAPHEMES, postRecord, postText, withoutUnresolvedMentions } from './post-record.ts';
export { decodeTid, encodeTid, storyRecordKey } from './record-key.ts';
export {
  assertValidStandardSiteRecord,
  DOCUMENT_COLLECTION,
  InvalidStandardSiteRecord,
  PUBLICATION_COLLECTION,
  STORY_CONTENT_TYPE,
} from './standard-site-lexicons.ts';
export { documentRecord, isDocumentOf, publicationRecord, publicationRecordKey } from './standard-site-records.ts';
