// Which stream records the stream function acts on (handlers/stream-records.ts), decided from the
// record alone: images in DynamoDB's wire format, as a stream delivers them.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { workFor, worksFor } from '../../../handlers/stream-records.ts';

const NOW = '2026-11-30T12:00:00.000Z';

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Record<string, unknown>): DynamoDBRecord {
  const image = marshall(item, { removeUndefinedValues: true }) as NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;
  return {
    eventName,
    dynamodb: {
      Keys: { PK: { S: String(item.PK) }, SK: { S: String(item.SK) } },
      SequenceNumber: '100',
      ...(eventName === 'REMOVE' ? { OldImage: image } : { NewImage: image }),
    },
  };
}

const correction = {
  PK: 'OUTBOX',
  SK: 'correction#2026-11-30-a-story#2',
  kind: 'correction',
  slug: '2026-11-30-a-story',
  recipients: new Set(['acct-a']),
};
const queuedStory = {
  PK: 'STORY#2026-11-30-a-story',
  SK: 'META',
  title: 'A story',
  GSI3PK: 'ANNOUNCE',
  GSI3SK: `${NOW}#2026-11-30-a-story`,
};

describe('the stream function acts only on its own records', () => {
  it('an inserted correction event is delivered, with its item as stored (sets as sets)', () => {
    const work = workFor(record('INSERT', correction), NOW);
    expect(work).toEqual({ kind: 'deliver', event: { ...correction } });
  });

  it('a modified or removed outbox event is not news (its retirement must not deliver again)', () => {
    expect(workFor(record('MODIFY', correction), NOW)).toEqual({ kind: 'skip' });
    expect(workFor(record('REMOVE', correction), NOW)).toEqual({ kind: 'skip' });
  });

  it('an outbox event of a kind this dispatcher does not know is left alone', () => {
    expect(workFor(record('INSERT', { ...correction, SK: 'digest#2026-11' }), NOW)).toEqual({ kind: 'skip' });
  });

  it('a story META on the announce queue, unclaimed and due, gets an announce attempt', () => {
    expect(workFor(record('INSERT', queuedStory), NOW)).toEqual({ kind: 'announce', slug: '2026-11-30-a-story' });
    expect(workFor(record('MODIFY', { ...queuedStory, bsky_uri: 'at://did:plc:x/app.bsky.feed.post/3k' }), NOW)).toEqual({
      kind: 'announce',
      slug: '2026-11-30-a-story',
    });
  });

  it('a META whose claim is in flight, whose retry is not due yet, or that is off the queue is skipped', () => {
    expect(workFor(record('MODIFY', { ...queuedStory, bsky_uri: 'pending', claim_id: 'c1' }), NOW)).toEqual({ kind: 'skip' });
    expect(workFor(record('MODIFY', { ...queuedStory, next_attempt_at: '2026-11-30T12:05:00.000Z' }), NOW)).toEqual({ kind: 'skip' });
    const { GSI3PK: _pk, GSI3SK: _sk, ...offQueue } = queuedStory;
    expect(workFor(record('MODIFY', offQueue), NOW)).toEqual({ kind: 'skip' });
  });

  it('other items (rate windows, op records, notifications, bodies) are skipped', () => {
    for (const item of [
      { PK: 'RATE#ip:203.0.113.7', SK: '2026-11-30T12:00', count: 3 },
      { PK: 'OP#acct-a', SK: 'op-1', tool: 'publish_story' },
      { PK: 'INBOX#acct-a', SK: 'N#2026#x', kind: 'correction' },
      { PK: 'STORY#2026-11-30-a-story', SK: 'BODY', markdown: '# A story', GSI3PK: 'ANNOUNCE' },
    ]) {
      expect(workFor(record('INSERT', item), NOW), String(item.PK)).toEqual({ kind: 'skip' });
    }
  });
});

function modified(before: Record<string, unknown>, after: Record<string, unknown>): DynamoDBRecord {
  const wire = (item: Record<string, unknown>) =>
    marshall(item, { removeUndefinedValues: true }) as NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;
  return {
    eventID: 'event-7',
    eventName: 'MODIFY',
    dynamodb: {
      Keys: { PK: { S: String(after.PK) }, SK: { S: String(after.SK) } },
      SequenceNumber: '101',
      OldImage: wire(before),
      NewImage: wire(after),
    },
  };
}

describe('the search change log: a change to what search indexes, and nothing else', () => {
  const meta = { PK: 'STORY#2026-11-30-a-story', SK: 'META', title: 'A story', visibility: 'public', hidden: false, counts: { worked: 0 } };
  const body = { PK: 'STORY#2026-11-30-a-story', SK: 'BODY', markdown: '# A story' };
  const change = { kind: 'search', change: { slug: '2026-11-30-a-story', eventId: 'event-7' } };

  it('a META or BODY inserted or removed is a change of its slug', () => {
    for (const item of [meta, body]) {
      expect(worksFor({ ...record('INSERT', item), eventID: 'event-7' }, NOW)).toEqual([change]);
      expect(worksFor({ ...record('REMOVE', item), eventID: 'event-7' }, NOW)).toEqual([change]);
    }
  });

  it('a META modified in an indexed field or in being listed is a change; in its counts alone it is not', () => {
    expect(worksFor(modified(meta, { ...meta, title: 'A better title' }), NOW)).toEqual([change]);
    expect(worksFor(modified(meta, { ...meta, hidden: true }), NOW)).toEqual([change]);
    expect(worksFor(modified(meta, { ...meta, visibility: 'private' }), NOW)).toEqual([change]);
    expect(worksFor(modified(meta, { ...meta, counts: { worked: 1 } }), NOW)).toEqual([]);
  });

  it('a BODY modified in its markdown is a change; a story due for announcing whose title changed is both kinds of work', () => {
    expect(worksFor(modified(body, { ...body, markdown: '# A story, edited' }), NOW)).toEqual([change]);
    const works = worksFor(modified(queuedStory, { ...queuedStory, title: 'Renamed' }), NOW);
    expect(works.map((work) => work.kind)).toEqual(['announce', 'search']);
  });

  it("other items of a story's partition (revisions, reproductions) and other partitions are no change", () => {
    expect(worksFor(record('INSERT', { PK: 'STORY#2026-11-30-a-story', SK: 'REV#000002', markdown: 'x' }), NOW)).toEqual([]);
    expect(worksFor(record('INSERT', { PK: 'STORY#2026-11-30-a-story', SK: 'REPRO#acct-b' }), NOW)).toEqual([]);
    expect(worksFor(record('INSERT', { PK: 'OP#acct-a', SK: 'META' }), NOW)).toEqual([]);
  });
});

describe('account deletion events (design.md#account-deletion)', () => {
  it('an inserted or moved account-deletion event asks for the next deletion steps of its account', () => {
    const image = marshall({ PK: 'OUTBOX', SK: 'account-deletion#did:plc:gone', account: 'did:plc:gone', steps: 3 });
    for (const eventName of ['INSERT', 'MODIFY'] as const) {
      expect(workFor({ eventName, dynamodb: { NewImage: image } } as DynamoDBRecord, new Date().toISOString())).toEqual({
        kind: 'delete-account',
        account: 'did:plc:gone',
      });
    }
  });
});
