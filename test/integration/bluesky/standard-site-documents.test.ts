// Against a real PDS on 127.0.0.1, counting records with listRecords: every listed story gets one
// standard.site document at its record key, in the site's one publication, pointing at its
// announcement post (docs/design.md#standard-site). Nothing that delivers a write again — republish, the
// identical publish, 16 parallel first publishes, a lost answer, an outage — makes a second
// document; only a real edit moves updatedAt; hide deletes the document and unhide puts it back
// at the same key. Every record written matches its lexicon.
import { AtpAgent } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import {
  assertValidStandardSiteRecord,
  DOCUMENT_COLLECTION,
  PUBLICATION_COLLECTION,
  publicationRecordKey,
  storyRecordKey,
} from '../../../integrations/bluesky/index.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import type { StoryDocument } from '../../../src/outbox/document-port.ts';
import { readPublication } from '../../../src/store/site-publication.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import {
  BASE_URL,
  type RepoRecord,
  TEST_ANNOUNCE_SETTINGS,
  TEST_PUBLICATION,
  useBluesky,
  withAnnouncing,
} from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-standard-site');
const bsky = useBluesky();
const alice = caller('alice');
const PUT = 'com.atproto.repo.putRecord';

const withDocuments = () => bsky.announcer({}, { documents: true });

async function meta(slug: string): Promise<Record<string, unknown>> {
  return (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META') as Record<string, unknown>;
}

/** The documents on the account whose content is this story. */
async function documentsFor(slug: string): Promise<RepoRecord[]> {
  return (await bsky.records(DOCUMENT_COLLECTION)).filter(
    (record) => (record.value.content as { slug?: string } | undefined)?.slug === slug,
  );
}

async function onlyDocument(slug: string): Promise<RepoRecord> {
  const documents = await documentsFor(slug);
  expect(documents).toHaveLength(1);
  return documents[0] as RepoRecord;
}

describe('a publish writes one document, in the one publication, pointing at its post', () => {
  it('publish → one post and one document at the story’s record key; bskyPostRef is the post’s uri and cid; every field as the story says', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), withDocuments());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Documented on the open web') });
    await idle();

    const posts = await bsky.postsFor(slug);
    expect(posts).toHaveLength(1);
    const postRecord = (await bsky.records('app.bsky.feed.post')).find((record) => record.uri === posts[0]?.uri) as RepoRecord;
    const story = await getStory(app.ctx(), alice, { slug });
    const document = await onlyDocument(slug);

    const publications = await bsky.records(PUBLICATION_COLLECTION);
    expect(publications).toHaveLength(1);
    const publication = publications[0] as RepoRecord;
    expect(publication.uri).toBe(`at://${bsky.account().did}/${PUBLICATION_COLLECTION}/${publicationRecordKey(BASE_URL)}`);
    expect(publication.value).toEqual({ $type: PUBLICATION_COLLECTION, ...TEST_PUBLICATION });

    expect(document.uri).toBe(`at://${bsky.account().did}/${DOCUMENT_COLLECTION}/${storyRecordKey(slug, story.published_at)}`);
    expect(document.value).toEqual({
      $type: DOCUMENT_COLLECTION,
      site: publication.uri,
      path: `/s/${slug}`,
      title: 'Documented on the open web',
      description: story.summary,
      textContent: expect.any(String),
      tags: story.tags,
      publishedAt: story.published_at,
      bskyPostRef: { uri: postRecord.uri, cid: postRecord.cid },
      content: {
        $type: 'dev.lorebook.story',
        slug,
        revision: 1,
        markdown: story.markdown,
        author: { handle: story.author.handle },
        storyType: story.type,
        status: story.status,
        counts: { worked: 0, partial: 0, failed: 0, hasProblem: 0, noProblem: 0 },
      },
    });
    // Plain text: the words are there, the markup is not.
    const text = String(document.value.textContent);
    expect(text).toContain('Documented on the open web');
    expect(text).not.toMatch(/^#|^---$|\*\*|```/m);
    // The story records the document; the store keeps the publication for the well-known endpoint.
    expect(await meta(slug)).toMatchObject({ doc_uri: document.uri, doc_cid: document.cid, doc_revision: 1, bsky_uri: posts[0]?.uri });
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
    expect(story.document_uri).toBe(document.uri);
    expect(await readPublication(app.ctx().store)).toEqual({ uri: publication.uri, cid: publication.cid, url: BASE_URL });
  });
});

describe('delivering again never makes a second document; only a real edit moves updatedAt', () => {
  it('the identical publish, a second attempt and an op_id replay write nothing; a republish with other content and an edit swap the one document, updatedAt the revision’s time', async () => {
    const announcer = withDocuments();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    const markdown = storyTitled('Republished and edited document');
    const { slug } = await publishStory(ctx, alice, { markdown });
    await idle();
    const first = await onlyDocument(slug);
    expect(first.value).not.toHaveProperty('updatedAt');

    const putsBefore = bsky.proxy().forwarded(PUT);
    await publishStory(ctx, alice, { markdown });
    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'not_owed' });
    await idle();
    expect(bsky.proxy().forwarded(PUT)).toBe(putsBefore);
    expect((await onlyDocument(slug)).cid).toBe(first.cid);

    // An edit with an op_id, replayed: the replay writes nothing, so the document is swapped once.
    const withOp = {
      slug,
      markdown: storyTitled('Republished and edited document', { extra: 'With an op.' }),
      kind: 'addition' as const,
      op_id: 'op-doc-1',
    };
    await editStory(ctx, alice, withOp);
    await idle();
    const putsAfterEdit = bsky.proxy().forwarded(PUT);
    expect(putsAfterEdit).toBe(putsBefore + 1);
    expect((await editStory(ctx, alice, withOp)).replayed).toBe(true);
    await idle();
    expect(bsky.proxy().forwarded(PUT)).toBe(putsAfterEdit);
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');

    app.advance(60_000);
    await publishStory(ctx, alice, { markdown: storyTitled('Republished and edited document', { extra: 'Republished with more.' }) });
    await idle();
    const republished = await onlyDocument(slug);
    const afterRepublish = await getStory(app.ctx(), alice, { slug });
    expect(republished.uri).toBe(first.uri);
    expect(republished.cid).not.toBe(first.cid);
    expect(republished.value).toMatchObject({ updatedAt: afterRepublish.updated_at, content: { revision: 3 } });
    expect(String(republished.value.textContent)).toContain('Republished with more.');

    app.advance(60_000);
    await editStory(ctx, alice, {
      slug,
      markdown: storyTitled('Republished and edited document', { extra: 'Edited later.' }),
      kind: 'rephrase',
    });
    await idle();
    const edited = await onlyDocument(slug);
    const afterEdit = await getStory(app.ctx(), alice, { slug });
    expect(edited.uri).toBe(first.uri);
    expect(edited.value).toMatchObject({ updatedAt: afterEdit.updated_at, content: { revision: 4 } });
    expect(afterEdit.updated_at > afterRepublish.updated_at).toBe(true);
    expect(await meta(slug)).toMatchObject({ doc_revision: 4, doc_cid: edited.cid });
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
    expect(await bsky.postsFor(slug)).toHaveLength(1);
  });

  it('16 parallel first publishes: one post, one document, one document write', async () => {
    const announcer = withDocuments();
    // The publication exists already: every putRecord counted below is the document's.
    await announcer.documents?.port.publication(TEST_PUBLICATION);
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    const markdown = storyTitled('Sixteen publishes one document');
    const putsBefore = bsky.proxy().forwarded(PUT);
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(ctx, alice, { markdown })));
    await idle();
    const slug = answers[0]?.slug as string;
    expect(new Set(answers.map((answer) => answer.slug)).size).toBe(1);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    await onlyDocument(slug);
    expect(bsky.proxy().forwarded(PUT) - putsBefore).toBe(1);
  });

  it('the document written but its answer lost: no second document; the sweeper finds it at the key, identical, and records it without writing', async () => {
    const announcer = withDocuments();
    await announcer.documents?.port.publication(TEST_PUBLICATION);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('The document answer got lost') });
    bsky.proxy().inject(PUT, { kind: 'drop-after-forward' });
    const putsBefore = bsky.proxy().forwarded(PUT);
    const lost = await announceStory(app.ctx(), announcer, slug);
    expect(lost).toMatchObject({ outcome: 'retry_later', error: expect.stringMatching(/could not be reached/) });
    await onlyDocument(slug);
    // The post stays recorded while the document waits for its retry.
    expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('posted');
    expect(await meta(slug)).toMatchObject({ GSI3PK: 'ANNOUNCE', doc_attempts: 1 });

    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    const report = await sweepAnnouncements(app.ctx(), announcer);
    const document = await onlyDocument(slug);
    expect(report.results.find((result) => result.slug === slug)).toMatchObject({ outcome: 'documented', document: document.uri });
    expect(bsky.proxy().forwarded(PUT) - putsBefore).toBe(1);
    expect(await meta(slug)).toMatchObject({ doc_uri: document.uri, doc_cid: document.cid, doc_revision: 1 });
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
    expect(await meta(slug)).not.toHaveProperty('doc_attempts');
  });

  it('the PDS down while the document is written: the post is kept, the document waits on the queue, and a later sweep writes exactly one', async () => {
    const announcer = withDocuments();
    await announcer.documents?.port.publication(TEST_PUBLICATION);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Document after an outage') });
    bsky.proxy().inject(PUT, { kind: 'status', status: 503 }, 2);
    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'retry_later', error: expect.stringMatching(/503/) });
    expect(await documentsFor(slug)).toHaveLength(0);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    expect((await sweepAnnouncements(app.ctx(), announcer)).results.find((result) => result.slug === slug)).toMatchObject({
      outcome: 'retry_later',
    });
    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    expect((await sweepAnnouncements(app.ctx(), announcer)).results.find((result) => result.slug === slug)).toMatchObject({
      outcome: 'documented',
    });
    await onlyDocument(slug);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
  });
});

describe('a write is conditioned on what was read at the key', () => {
  it('a record that appears at the key between the look-up and the write is never overwritten: the swap refuses, the record is read again and left alone', async () => {
    const port = withDocuments().port.documents;
    const site = await port.publication(TEST_PUBLICATION);
    const document: StoryDocument = {
      slug: '2026-12-01-raced-document',
      publishedAt: '2026-12-01T10:00:00.000Z',
      revision: 1,
      title: 'Raced',
      summary: 'Someone else wrote at the key first.',
      tags: [],
      path: '/s/2026-12-01-raced-document',
      markdown: '# Raced',
      textContent: 'Raced',
      author: { handle: 'alice' },
      type: 'success',
      status: 'n/a',
      counts: { worked: 0, partial: 0, failed: 0, hasProblem: 0, noProblem: 0 },
    };
    const rkey = storyRecordKey(document.slug, document.publishedAt);
    const held = bsky.proxy().hold(PUT);
    const writing = port.write(document, site, undefined);
    await held.arrived;
    // Another app writes its own record at that key, straight to the PDS, while ours is in flight.
    const other = new AtpAgent({ service: bsky.pds().url });
    await other.login({ identifier: bsky.account().handle, password: bsky.account().password });
    const foreign = {
      $type: DOCUMENT_COLLECTION,
      site: 'https://elsewhere.example',
      title: 'Not lorebook’s',
      publishedAt: document.publishedAt,
    };
    await other.com.atproto.repo.putRecord({ repo: bsky.account().did, collection: DOCUMENT_COLLECTION, rkey, record: foreign });
    held.forward();
    await expect(writing).rejects.toMatchObject({ kind: 'rejected', message: expect.stringMatching(/never overwritten/) });
    const [kept, ...more] = (await bsky.records(DOCUMENT_COLLECTION)).filter((record) => record.uri.endsWith(`/${rkey}`));
    expect(more).toHaveLength(0);
    expect(kept?.value).toEqual(foreign);
  });

  it('a worker holding an older revision never writes it over a later one: superseded, nothing sent', async () => {
    const port = withDocuments().port.documents;
    const site = await port.publication(TEST_PUBLICATION);
    const base: StoryDocument = {
      slug: '2026-12-01-later-revision',
      publishedAt: '2026-12-01T11:00:00.000Z',
      revision: 2,
      updatedAt: '2026-12-02T11:00:00.000Z',
      title: 'Later',
      summary: 'Revision two is the newest.',
      tags: [],
      path: '/s/2026-12-01-later-revision',
      markdown: '# Later',
      textContent: 'Later',
      author: { handle: 'alice' },
      type: 'success',
      status: 'n/a',
      counts: { worked: 0, partial: 0, failed: 0, hasProblem: 0, noProblem: 0 },
    };
    const later = await port.write(base, site, undefined);
    expect(later.outcome).toBe('created');
    const putsBefore = bsky.proxy().seen(PUT);
    const { updatedAt: _, ...first } = base;
    expect(await port.write({ ...first, revision: 1, title: 'Earlier' }, site, undefined)).toEqual({ ...later, outcome: 'superseded' });
    expect(bsky.proxy().seen(PUT)).toBe(putsBefore);
    expect((await onlyDocument(base.slug)).value).toMatchObject({ title: 'Later', content: { revision: 2 } });
  });
});

describe('while the document is written', () => {
  it('the story still reads as posted, with its post, while the document step holds the claim', async () => {
    const announcer = withDocuments();
    await announcer.documents?.port.publication(TEST_PUBLICATION);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Posted while documenting') });
    const held = bsky.proxy().hold(PUT);
    const attempt = announceStory(app.ctx(), announcer, slug);
    await held.arrived;
    const [post] = await bsky.postsFor(slug);
    expect(await meta(slug)).toMatchObject({ bsky_uri: 'pending', claim_post: post?.uri });
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: post?.uri });
    held.forward();
    expect(await attempt).toMatchObject({ outcome: 'posted', uri: post?.uri, document: expect.stringContaining(DOCUMENT_COLLECTION) });
    expect(await meta(slug)).not.toHaveProperty('claim_post');
  });
});

describe('hide and unhide', () => {
  it('a hide while the document is in flight: the document is recorded, then deleted with the post; the story ends hidden with neither', async () => {
    const announcer = withDocuments();
    await announcer.documents?.port.publication(TEST_PUBLICATION);
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    const held = bsky.proxy().hold(PUT);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Hidden while documenting') });
    await held.arrived;
    await setVisibility(ctx, alice, { slug, hidden: true });
    held.forward();
    await idle();
    expect(await documentsFor(slug)).toHaveLength(0);
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect(await meta(slug)).not.toHaveProperty('doc_uri');
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'off' });
  });

  it('hide deletes the document with the post; unhide puts both back at the same keys', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), withDocuments());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Document hidden and shown') });
    await idle();
    const before = await onlyDocument(slug);

    await setVisibility(ctx, alice, { slug, hidden: true });
    await idle();
    expect(await documentsFor(slug)).toHaveLength(0);
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect(await meta(slug)).not.toHaveProperty('doc_uri');
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');

    await setVisibility(ctx, alice, { slug, hidden: false });
    await idle();
    const after = await onlyDocument(slug);
    expect(after.uri).toBe(before.uri);
    const [post] = await bsky.postsFor(slug);
    expect((after.value.bskyPostRef as { uri: string }).uri).toBe(post?.uri);
    expect(await meta(slug)).toMatchObject({ doc_uri: after.uri, doc_revision: 1 });
  });
});

describe('every record matches its lexicon, and one that does not is never sent', () => {
  it('the publication and every document on the account validate against lexicons/', async () => {
    const records = [...(await bsky.records(PUBLICATION_COLLECTION)), ...(await bsky.records(DOCUMENT_COLLECTION))];
    expect(records.length).toBeGreaterThan(1);
    for (const record of records) {
      const collection = record.uri.includes(`/${PUBLICATION_COLLECTION}/`) ? PUBLICATION_COLLECTION : DOCUMENT_COLLECTION;
      expect(() => assertValidStandardSiteRecord(collection, record.value)).not.toThrow();
    }
  });

  it('a document its lexicon refuses (a revision of 0, negative counts) is refused before it is sent: no putRecord reaches the PDS', async () => {
    const port = withDocuments().port.documents;
    const site = await port.publication(TEST_PUBLICATION);
    const broken: StoryDocument = {
      slug: '2026-12-01-broken-document',
      publishedAt: '2026-12-01T10:00:00.000Z',
      revision: 0,
      title: 'Broken',
      summary: 'Broken on purpose.',
      tags: [],
      path: '/s/2026-12-01-broken-document',
      markdown: '# Broken',
      textContent: 'Broken',
      author: { handle: 'alice' },
      type: 'success',
      status: 'n/a',
      counts: { worked: -1, partial: 0, failed: 0, hasProblem: 0, noProblem: 0 },
    };
    const putsBefore = bsky.proxy().seen(PUT);
    await expect(port.write(broken, site, undefined)).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/dev\.lorebook\.story.*(revision|worked)/),
    });
    expect(bsky.proxy().seen(PUT)).toBe(putsBefore);
  });
});
