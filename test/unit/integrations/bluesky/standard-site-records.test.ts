// The standard.site records lorebook builds, checked against the lexicons in lexicons/ with
// @atproto/lexicon: a record as built validates; each deliberately broken one is caught, naming
// the field (a PDS would store it as given: it does not know these lexicons).
import { describe, expect, it } from 'vitest';
import {
  assertValidStandardSiteRecord,
  DOCUMENT_COLLECTION,
  documentRecord,
  InvalidStandardSiteRecord,
  isDocumentOf,
  PUBLICATION_COLLECTION,
  publicationRecord,
  publicationRecordKey,
  storyRecordKey,
} from '../../../../integrations/bluesky/index.ts';
import type { StoryDocument } from '../../../../src/outbox/document-port.ts';

const SITE = { uri: 'at://did:plc:lorebook/site.standard.publication/3lzy2ji4nms2z', cid: 'bafyreib2rxk3rh6kzwq' };
const POST = {
  uri: 'at://did:plc:lorebook/app.bsky.feed.post/3lzy2ji4nms2a',
  cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm',
};
const DOCUMENT: StoryDocument = {
  slug: '2026-12-01-counting-once',
  publishedAt: '2026-12-01T10:00:00.000Z',
  revision: 2,
  updatedAt: '2026-12-02T10:00:00.000Z',
  title: 'Counting once',
  summary: 'Two agents reported at once and the count doubled.',
  tags: ['dynamodb', 'typescript'],
  path: '/s/2026-12-01-counting-once',
  markdown: '---\ntitle: Counting once\n---\n# Counting once\n',
  textContent: 'Counting once',
  author: { did: 'did:plc:alice', handle: 'alice.test' },
  type: 'success',
  status: 'n/a',
  counts: { worked: 2, partial: 0, failed: 1, hasProblem: 0, noProblem: 3 },
};

const record = (document: StoryDocument = DOCUMENT) => documentRecord(document, SITE, POST);
const refused = (collection: typeof DOCUMENT_COLLECTION | typeof PUBLICATION_COLLECTION, value: unknown): string => {
  try {
    assertValidStandardSiteRecord(collection, value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidStandardSiteRecord);
    return (error as Error).message;
  }
  throw new Error('the record was not refused');
};

describe('records as lorebook builds them', () => {
  it('a document: every field from the story, bskyPostRef the post’s strong ref, content a dev.lorebook.story; it validates', () => {
    expect(record()).toEqual({
      $type: 'site.standard.document',
      site: SITE.uri,
      path: DOCUMENT.path,
      title: DOCUMENT.title,
      description: DOCUMENT.summary,
      textContent: DOCUMENT.textContent,
      tags: DOCUMENT.tags,
      publishedAt: DOCUMENT.publishedAt,
      updatedAt: DOCUMENT.updatedAt,
      bskyPostRef: POST,
      content: {
        $type: 'dev.lorebook.story',
        slug: DOCUMENT.slug,
        revision: 2,
        markdown: DOCUMENT.markdown,
        author: { did: 'did:plc:alice', handle: 'alice.test' },
        storyType: 'success',
        status: 'n/a',
        counts: DOCUMENT.counts,
      },
    });
    expect(() => assertValidStandardSiteRecord(DOCUMENT_COLLECTION, record())).not.toThrow();
  });

  it('a first revision has no updatedAt; an author without a DID only a handle; no post, no bskyPostRef — still valid', () => {
    const { updatedAt: _, ...first } = DOCUMENT;
    const value = documentRecord({ ...first, revision: 1, author: { handle: 'alice' } }, SITE, undefined);
    expect(value).not.toHaveProperty('updatedAt');
    expect(value).not.toHaveProperty('bskyPostRef');
    expect(value.content).toMatchObject({ author: { handle: 'alice' } });
    expect(() => assertValidStandardSiteRecord(DOCUMENT_COLLECTION, value)).not.toThrow();
  });

  it('the publication validates; its key is one TID per site URL, the same every time', () => {
    const value = publicationRecord({ url: 'https://lorebook.example', name: 'lorebook', description: 'Stories.' });
    expect(() => assertValidStandardSiteRecord(PUBLICATION_COLLECTION, value)).not.toThrow();
    expect(publicationRecordKey('https://lorebook.example')).toBe(publicationRecordKey('https://lorebook.example'));
    expect(publicationRecordKey('https://lorebook.example')).not.toBe(publicationRecordKey('https://other.example'));
    expect(publicationRecordKey('https://lorebook.example')).toMatch(/^[2-7a-j][2-7a-z]{12}$/);
  });

  it('a document is recognised as the story’s only by its dev.lorebook.story content and slug', () => {
    expect(isDocumentOf(record(), DOCUMENT.slug)).toBe(true);
    expect(isDocumentOf(record(), '2026-12-01-another')).toBe(false);
    expect(isDocumentOf({ ...record(), content: { $type: 'pub.leaflet.content', slug: DOCUMENT.slug } }, DOCUMENT.slug)).toBe(false);
    expect(storyRecordKey(DOCUMENT.slug, DOCUMENT.publishedAt)).toMatch(/^[2-7a-z]{13}$/);
  });
});

describe('a broken record is caught, naming what is wrong', () => {
  it.each([
    ['no site', () => ({ ...record(), site: undefined }), /site/],
    ['a title that is not text', () => ({ ...record(), title: 42 }), /title/],
    ['a publish time that is not a datetime', () => ({ ...record(), publishedAt: 'yesterday' }), /publishedAt/],
    ['a title over 500 graphemes', () => ({ ...record(), title: 'x'.repeat(501) }), /title/],
    ['a post ref without its cid', () => ({ ...record(), bskyPostRef: { uri: POST.uri } }), /bskyPostRef|cid/],
    ['content: a revision of 0', () => record({ ...DOCUMENT, revision: 0 }), /dev\.lorebook\.story.*revision/],
    ['content: negative counts', () => record({ ...DOCUMENT, counts: { ...DOCUMENT.counts, failed: -1 } }), /dev\.lorebook\.story.*failed/],
    ['content: an author DID that is not a DID', () => record({ ...DOCUMENT, author: { did: 'alice', handle: 'alice' } }), /did/],
    ['content: markdown over 64 KiB', () => record({ ...DOCUMENT, markdown: 'x'.repeat(65_537) }), /markdown/],
  ])('a document with %s', (_, broken, names) => {
    expect(refused(DOCUMENT_COLLECTION, broken())).toMatch(names);
  });

  it('a publication without a name, or with a url that is not a URI', () => {
    const value = publicationRecord({ url: 'https://lorebook.example', name: 'lorebook', description: 'Stories.' });
    expect(refused(PUBLICATION_COLLECTION, { ...value, name: undefined })).toMatch(/name/);
    expect(refused(PUBLICATION_COLLECTION, { ...value, url: 'not a url' })).toMatch(/url/);
  });
});
