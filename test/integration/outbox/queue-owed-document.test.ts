// The backfill's one write (queueOwedDocument in src/store/story/document-items.ts) on DynamoDB
// Local: it puts a story on the announce queue only while everything the walk read still holds.
// Each case changes one thing between the read and the write, as an edit, a hide, the sweeper or
// another run would, and the write must be refused with nothing written.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { writeIfStillSo } from '../../../src/outbox/announce/fenced-write.ts';
import { INDEXES } from '../../../src/store/schema.ts';
import { queueOwedDocument } from '../../../src/store/story/document-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('queue-owed-document');
const POST = 'at://did:plc:queueowed/app.bsky.feed.post/3kqueueowed';

/** A story announced before documents: the post on the marker, off the queue, no document. */
async function owedStory(title: string, change?: { set?: string; values?: Record<string, unknown>; marker?: string }): Promise<string> {
  const { slug } = await publishStory(app.ctx(), caller('alice'), { markdown: storyTitled(title) });
  await app.ctx().store.client.send(
    new UpdateCommand({
      TableName: app.ctx().store.tableName,
      Key: { PK: `STORY#${slug}`, SK: 'META' },
      UpdateExpression: `SET bsky_uri = :post${change?.set === undefined ? '' : `, ${change.set}`} REMOVE #queue, #queueSort`,
      ExpressionAttributeNames: {
        '#queue': INDEXES.announce.partition,
        '#queueSort': INDEXES.announce.sort,
        ...(change?.set?.includes('#hidden') ? { '#hidden': 'hidden' } : {}),
      },
      ExpressionAttributeValues: { ':post': change?.marker ?? POST, ...change?.values },
    }),
  );
  return slug;
}

const queue = (slug: string) => writeIfStillSo(app.ctx().store, [queueOwedDocument(slug, POST, '2026-12-02T00:00:00.000Z')]);
const metaOf = async (slug: string) => (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');

describe('queueing a story owed a document', () => {
  it('a listed story with its post and no document, off the queue: queued, due at the time given', async () => {
    const slug = await owedStory('Owed and still owed');
    expect(await queue(slug)).toBe(true);
    expect(await metaOf(slug)).toMatchObject({
      [INDEXES.announce.partition]: 'ANNOUNCE',
      [INDEXES.announce.sort]: `2026-12-02T00:00:00.000Z#${slug}`,
    });
  });

  const refused: Array<[string, { set?: string; values?: Record<string, unknown>; marker?: string }]> = [
    ['hidden since the read', { set: '#hidden = :yes', values: { ':yes': true } }],
    ['made private since the read', { set: 'visibility = :private', values: { ':private': 'private' } }],
    ['a claim in progress on the marker', { marker: 'pending' }],
    ['another post on the marker', { marker: 'at://did:plc:queueowed/app.bsky.feed.post/3kother' }],
    ['its document written meanwhile, at the current revision', { set: 'doc_revision = revision' }],
  ];
  for (const [what, change] of refused) {
    it(`${what}: refused, nothing written`, async () => {
      const slug = await owedStory(`Owed but ${what}`.slice(0, 60), change);
      const before = await app.state();
      expect(await queue(slug)).toBe(false);
      expect(await app.state()).toEqual(before);
    });
  }

  it('already on the queue: refused, its place kept', async () => {
    const slug = await owedStory('Owed and queued already');
    expect(await queue(slug)).toBe(true);
    const before = await app.state();
    expect(await writeIfStillSo(app.ctx().store, [queueOwedDocument(slug, POST, '2026-12-03T00:00:00.000Z')])).toBe(false);
    expect(await app.state()).toEqual(before);
  });

  it('a document at an older revision is owed: queued', async () => {
    const slug = await owedStory('Owed a newer document', { set: 'doc_revision = :old', values: { ':old': 0 } });
    expect(await queue(slug)).toBe(true);
  });
});
