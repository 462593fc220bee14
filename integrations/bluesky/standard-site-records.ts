// The standard.site records lorebook writes (docs/design.md#standard-site): the publication, and one
// document per story whose content is a dev.lorebook.story. Plain data in, records out; each is
// a pure function of what the story says at one revision, so every attempt of the same revision
// builds the same record, and a record already at the key that says it is left alone.
import type { PublicationContent, RecordRef, StoryDocument } from '../../src/outbox/document-port.ts';
import { storyRecordKey } from './record-key.ts';
import { DOCUMENT_COLLECTION, PUBLICATION_COLLECTION, STORY_CONTENT_TYPE } from './standard-site-lexicons.ts';

/**
 * The publication's record key: a TID from the site URL and a fixed time, so every process of
 * one site writes the one publication, and a site moved to another URL gets a publication of its
 * own. Only stability matters here; the time is any fixed one.
 */
export function publicationRecordKey(siteUrl: string): string {
  return storyRecordKey(`publication ${siteUrl}`, '2026-01-01T00:00:00.000Z');
}

export function publicationRecord(content: PublicationContent): Record<string, unknown> {
  return { $type: PUBLICATION_COLLECTION, url: content.url, name: content.name, description: content.description };
}

export function documentRecord(document: StoryDocument, site: RecordRef, post: RecordRef | undefined): Record<string, unknown> {
  const { author, counts } = document;
  return {
    $type: DOCUMENT_COLLECTION,
    site: site.uri,
    path: document.path,
    title: document.title,
    description: document.summary,
    textContent: document.textContent,
    tags: [...document.tags],
    publishedAt: document.publishedAt,
    ...(document.updatedAt === undefined ? {} : { updatedAt: document.updatedAt }),
    ...(post === undefined ? {} : { bskyPostRef: { uri: post.uri, cid: post.cid } }),
    content: {
      $type: STORY_CONTENT_TYPE,
      slug: document.slug,
      revision: document.revision,
      markdown: document.markdown,
      author: author.did === undefined ? { handle: author.handle } : { did: author.did, handle: author.handle },
      storyType: document.type,
      status: document.status,
      counts: { ...counts },
    },
  };
}

/** Whether a record found at a story's document key is that story's document (and so ours to replace). */
export function isDocumentOf(value: unknown, slug: string): boolean {
  const content = (value as { content?: { $type?: unknown; slug?: unknown } } | undefined)?.content;
  return content?.$type === STORY_CONTENT_TYPE && content.slug === slug;
}

/** The story revision a document record shows (0 when it says none). */
export function documentRevision(value: unknown): number {
  const revision = (value as { content?: { revision?: unknown } } | undefined)?.content?.revision;
  return typeof revision === 'number' ? revision : 0;
}
