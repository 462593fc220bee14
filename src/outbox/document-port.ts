// What the announcer needs to keep a story's standard.site document (docs/design.md#standard-site) in line
// with the story: the publication the documents belong to, and one document per story at the
// story's record key, written or deleted there. integrations/bluesky implements it. Failures
// arrive as AnnounceFailure, like the post's.
import type { StoryPost } from './announce/port.ts';

/** The publication on the announcing account: one per site. */
export interface PublicationContent {
  /** The site's base URL, no trailing slash. */
  url: string;
  name: string;
  description: string;
}

export interface RecordRef {
  uri: string;
  cid: string;
}

/** Everything a story's document is made from, as of one revision. `slug` and `publishedAt` never change. */
export interface StoryDocument {
  slug: string;
  /** First-publish time (ISO): with the slug, it fixes the record key (the post's rule). */
  publishedAt: string;
  revision: number;
  /** The time of the revision, only when it is an edit (revision > 1). */
  updatedAt?: string;
  title: string;
  summary: string;
  tags: readonly string[];
  /** The story page's path, e.g. `/s/<slug>`. */
  path: string;
  markdown: string;
  /** The story as plain text, without markup. */
  textContent: string;
  author: { did?: string; handle: string };
  type: string;
  status: string;
  counts: { worked: number; partial: number; failed: number; hasProblem: number; noProblem: number };
}

/**
 * What writing a document did: `unchanged` when the record at the key already said it,
 * `superseded` when it shows a later revision of the story (a worker that lost its claim must not
 * write an older revision over it); nothing is written in either case.
 */
export type DocumentWrite = RecordRef & { outcome: 'created' | 'updated' | 'unchanged' | 'superseded' };

export interface DocumentPort {
  /** Writes the publication if it is missing or says something else; answers its reference. */
  publication(content: PublicationContent): Promise<RecordRef>;
  /** The post at the story's record key (for the document's bskyPostRef), or undefined when there is none. */
  postRef(post: Pick<StoryPost, 'slug' | 'publishedAt'>): Promise<RecordRef | undefined>;
  /**
   * Makes the record at the story's document key say `document`: looks it up first, leaves an
   * identical record (or one of a later revision) alone, creates it only where there is none and
   * replaces it only by swapping the CID it read. A record there that is not this story's
   * document is never overwritten: `rejected`.
   */
  write(document: StoryDocument, site: RecordRef, post: RecordRef | undefined): Promise<DocumentWrite>;
  /** Deletes the document at the story's record key; deleting nothing is fine. */
  remove(post: Pick<StoryPost, 'slug' | 'publishedAt'>): Promise<void>;
}
