// Bluesky (atproto) for lorebook: announcing stories as posts (docs/design.md §4.5) and as standard.site documents (§16).
export { createBlueskyClient, type BlueskyClient, type BlueskyOptions } from './bluesky-client.ts';
export { boundedFetch } from './bounded-fetch.ts';
export { retryAfter, toAnnounceFailure } from './failures.ts';
export { MAX_POST_GRAPHEMES, hashtag, linksOf, postRecord, postText, withoutUnresolvedMentions } from './post-record.ts';
export { decodeTid, encodeTid, storyRecordKey } from './record-key.ts';
export {
  InvalidStandardSiteRecord,
  assertValidStandardSiteRecord,
  DOCUMENT_COLLECTION,
  PUBLICATION_COLLECTION,
  STORY_CONTENT_TYPE,
} from './standard-site-lexicons.ts';
export { documentRecord, isDocumentOf, publicationRecord, publicationRecordKey } from './standard-site-records.ts';
