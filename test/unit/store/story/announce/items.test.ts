import { describe, expect, it } from 'vitest';
import {
  claimAnnounce,
  claimDelete,
  completeAnnounce,
  completeDelete,
  giveUpAnnounce,
  leaveAnnounceQueue,
  listAnnouncement,
  recordPostStillOwed,
  retryAnnounceLater,
  retryDeleteLater,
  reviseAnnouncement,
  unlistAnnouncement,
} from '../../../../../src/store/story/announce/items.ts';
import {
  dueAnnouncementsParams,
  firstAnnouncementParams,
  waitingAnnouncementsParams,
} from '../../../../../src/store/story/announce/queue.ts';
import { requeueAnnounce } from '../../../../../src/store/story/announce/requeue.ts';
import { PENDING } from '../../../../../src/store/story/claim-marker.ts';

const slug = '2026-10-14-story';
const key = { PK: `STORY#${slug}`, SK: 'META' };

describe('the announce writes on META', () => {
  it('a claim needs bsky_uri absent and the story still on the queue, public, shown and not held for a new account; it counts the attempt and moves the queue entry to when the claim turns stale', () => {
    const { Update } = claimAnnounce({ slug, claimId: 'c1', claimedAt: '2026-10-14T10:00:00.000Z', staleAt: '2026-10-14T10:05:00.000Z' });
    expect(Update.Key).toEqual(key);
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((attribute_not_exists(#marker)) AND ((#queue = :announcePartition) AND (#visibility = :public AND #hidden = :shown) AND (attribute_not_exists(#heldUntil) OR #heldUntil <= :claimedAt)))',
    );
    expect(Update.UpdateExpression).toBe(
      'SET #marker = :pending, claim_id = :claimId, claimed_at = :claimedAt, #attempts = if_not_exists(#attempts, :zero) + :one, #queueSort = :staleSort',
    );
    expect(Update.ExpressionAttributeNames).toEqual({
      '#marker': 'bsky_uri',
      '#attempts': 'announce_attempts',
      '#queueSort': 'GSI3SK',
      '#queue': 'GSI3PK',
      '#visibility': 'visibility',
      '#hidden': 'hidden',
      '#heldUntil': 'held_until',
    });
    expect(Update.ExpressionAttributeValues).toStrictEqual({
      ':zero': 0,
      ':one': 1,
      ':staleSort': `2026-10-14T10:05:00.000Z#${slug}`,
      ':pending': PENDING,
      ':claimId': 'c1',
      ':claimedAt': '2026-10-14T10:00:00.000Z',
      ':announcePartition': 'ANNOUNCE',
      ':public': 'public',
      ':shown': false,
    });
  });

  it('a takeover may also claim a pending marker claimed before the stale time', () => {
    const { Update } = claimAnnounce({ slug, claimId: 'c2', claimedAt: 'b', staleAt: 'c', takeOverBefore: 'a' });
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((attribute_not_exists(#marker) OR (#marker = :pending AND claimed_at < :staleBefore)) AND ((#queue = :announcePartition) AND (#visibility = :public AND #hidden = :shown) AND (attribute_not_exists(#heldUntil) OR #heldUntil <= :claimedAt)))',
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':staleBefore': 'a' });
  });

  it('complete records the uri and leaves the queue, only for this claim id and while the story is listed', () => {
    const { Update } = completeAnnounce(slug, 'c1', 'at://did:plc:x/app.bsky.feed.post/3abc');
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((#marker = :pending AND claim_id = :claimId) AND (#visibility = :public AND #hidden = :shown))',
    );
    expect(Update.UpdateExpression).toBe('SET #marker = :result REMOVE #r0, #r1, #r2, #r3, #r4, #r5, #r6');
    expect(Object.values(Update.ExpressionAttributeNames ?? {}).sort()).toEqual(
      [
        'bsky_uri',
        'claim_id',
        'claim_post',
        'claimed_at',
        'GSI3PK',
        'GSI3SK',
        'next_attempt_at',
        'last_error',
        'visibility',
        'hidden',
      ].sort(),
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':claimId': 'c1', ':result': 'at://did:plc:x/app.bsky.feed.post/3abc' });
  });

  it('retry later releases the claim and moves the queue entry to the retry time, keeping the error', () => {
    const { Update } = retryAnnounceLater(slug, 'c1', '2026-10-14T10:01:00.000Z', 'PDS 502');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1, #s2 = :s2 REMOVE #r0, #r1, #r2, #r3');
    expect(Update.ExpressionAttributeValues).toMatchObject({
      ':s0': '2026-10-14T10:01:00.000Z',
      ':s1': 'PDS 502',
      ':s2': `2026-10-14T10:01:00.000Z#${slug}`,
    });
  });

  it('giving up releases the claim and leaves the queue with the error (state failed)', () => {
    const { Update } = giveUpAnnounce(slug, 'c1', 'refused');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0 REMOVE #r0, #r1, #r2, #r3, #r4, #r5, #r6');
    expect(Object.values(Update.ExpressionAttributeNames ?? {}).sort()).toEqual(
      ['bsky_uri', 'bsky_uri', 'claim_id', 'claim_post', 'claimed_at', 'GSI3PK', 'GSI3SK', 'next_attempt_at', 'last_error'].sort(),
    );
  });

  it('the queue read asks GSI3 for entries due now or earlier, oldest first', () => {
    expect(dueAnnouncementsParams('t', '2026-10-14T10:00:00.000Z', 25)).toEqual({
      TableName: 't',
      IndexName: 'GSI3',
      KeyConditionExpression: '#partition = :partition AND #sort <= :due',
      ExpressionAttributeNames: { '#partition': 'GSI3PK', '#sort': 'GSI3SK' },
      ExpressionAttributeValues: { ':partition': 'ANNOUNCE', ':due': '2026-10-14T10:00:00.000Z#\uffff' },
      ScanIndexForward: true,
      Limit: 25,
    });
  });

  it('the skipped read asks GSI3 for entries not due yet, soonest first; the timer reads the one earliest entry', () => {
    expect(waitingAnnouncementsParams('t', '2026-10-14T10:00:00.000Z', 25)).toEqual({
      TableName: 't',
      IndexName: 'GSI3',
      KeyConditionExpression: '#partition = :partition AND #sort > :due',
      ExpressionAttributeNames: { '#partition': 'GSI3PK', '#sort': 'GSI3SK' },
      ExpressionAttributeValues: { ':partition': 'ANNOUNCE', ':due': '2026-10-14T10:00:00.000Z#\uffff' },
      ScanIndexForward: true,
      Limit: 25,
    });
    expect(firstAnnouncementParams('t')).toEqual({
      TableName: 't',
      IndexName: 'GSI3',
      KeyConditionExpression: '#partition = :partition',
      ExpressionAttributeNames: { '#partition': 'GSI3PK' },
      ExpressionAttributeValues: { ':partition': 'ANNOUNCE' },
      ScanIndexForward: true,
      Limit: 1,
    });
  });

  it('a requeue needs a story never posted nor claimed, off the queue, public and shown; attempts start again', () => {
    const { Update } = requeueAnnounce(slug, '2026-10-14T11:00:00.000Z');
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND (attribute_not_exists(#marker) AND attribute_not_exists(#queue) AND #visibility = :public AND #hidden = :shown)',
    );
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1, #s2 = :s2 REMOVE #r0');
    expect(Update.ExpressionAttributeValues).toEqual({
      ':s0': 'ANNOUNCE',
      ':s1': `2026-10-14T11:00:00.000Z#${slug}`,
      ':s2': 0,
      ':public': 'public',
      ':shown': false,
    });
  });
});

describe('deleting the post of a story that is no longer listed', () => {
  const uri = 'at://did:plc:x/app.bsky.feed.post/3abc';

  it('a post recorded after the story was unlisted keeps the queue entry, due now, for its deletion', () => {
    const { Update } = recordPostStillOwed(slug, 'c1', uri, '2026-10-14T10:00:00.000Z');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #marker = :result REMOVE #r0, #r1, #r2, #r3, #r4');
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':result': uri, ':s0': `2026-10-14T10:00:00.000Z#${slug}` });
  });

  it('the deletion is claimed from exactly the recorded post, while the story is queued and hidden or private', () => {
    const { Update } = claimDelete({ slug, claimId: 'd1', claimedAt: 'now', staleAt: 'later', posted: uri });
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((#marker = :result) AND ((#queue = :announcePartition) AND (#visibility <> :public OR #hidden = :hiddenFlag)))',
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':result': uri, ':claimId': 'd1', ':public': 'public', ':hiddenFlag': true });
  });

  it('without a recorded post (an attempt that may have posted, a stale claim) it is claimed like an announcement', () => {
    const { Update } = claimDelete({ slug, claimId: 'd2', claimedAt: 'now', staleAt: 'later', takeOverBefore: 'before' });
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((attribute_not_exists(#marker) OR (#marker = :pending AND claimed_at < :staleBefore)) AND ((#queue = :announcePartition) AND (#visibility <> :public OR #hidden = :hiddenFlag)))',
    );
  });

  it('a done deletion removes the marker and the document fields, starts attempts from zero and leaves the entry due now for a last check', () => {
    const { Update } = completeDelete(slug, 'd1', '2026-10-14T10:00:00.000Z');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1 REMOVE #r0, #r1, #r2, #r3, #r4, #r5, #r6, #r7, #r8, #r9');
    expect(Object.values(Update.ExpressionAttributeNames ?? {})).toEqual(
      expect.arrayContaining(['doc_uri', 'doc_cid', 'doc_revision', 'doc_attempts']),
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':s0': 0, ':s1': `2026-10-14T10:00:00.000Z#${slug}` });
  });

  it('a failed deletion puts the post back on the marker until the retry time', () => {
    const { Update } = retryDeleteLater(slug, 'd1', uri, '2026-10-14T10:01:00.000Z', 'PDS 502');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1, #s2 = :s2, #marker = :result REMOVE #r0, #r1, #r2');
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':result': uri, ':s1': 'PDS 502' });
    expect(retryDeleteLater(slug, 'd1', undefined, 'next', 'e')).toEqual(retryAnnounceLater(slug, 'd1', 'next', 'e'));
  });

  it('leaving the queue is conditioned on what was checked', () => {
    expect(leaveAnnounceQueue(slug, { posted: uri }).Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((#queue = :announcePartition) AND ((#marker = :posted) AND (#visibility = :public AND #hidden = :shown)))',
    );
    expect(leaveAnnounceQueue(slug, { neverReached: true }).Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((#queue = :announcePartition) AND ((attribute_not_exists(#marker) AND (attribute_not_exists(#attempts) OR #attempts = :noAttempts)) AND (#visibility <> :public OR #hidden = :hiddenFlag)))',
    );
  });

  it('unlisting: never reached leaves the queue on that condition; a post, a claim or an attempt is queued due now', () => {
    expect(unlistAnnouncement({ slug, announce: {} }, 'now')).toEqual({
      set: {},
      remove: ['GSI3PK', 'GSI3SK'],
      condition: expect.objectContaining({
        expression: 'attribute_not_exists(#marker) AND (attribute_not_exists(#attempts) OR #attempts = :noAttempts)',
      }),
    });
    for (const meta of [
      { slug, announce: { bsky_uri: uri } },
      { slug, announce: { bsky_uri: 'pending' } },
      { slug, announce: { attempts: 2 } },
    ]) {
      expect(unlistAnnouncement(meta, 'now')).toEqual({ set: { GSI3PK: 'ANNOUNCE', GSI3SK: `now#${slug}` }, remove: [] });
    }
  });

  it('listing again: never posted and off the queue is owed an announcement; a post whose deletion has not run and whose document shows the revision leaves the queue; the rest keep their place', () => {
    expect(listAnnouncement({ slug, announce: { queued: false } }, 'now', 1)).toEqual({
      set: { GSI3PK: 'ANNOUNCE', GSI3SK: `now#${slug}` },
      remove: [],
      condition: { expression: 'attribute_not_exists(#marker)', names: { '#marker': 'bsky_uri' } },
    });
    expect(listAnnouncement({ slug, announce: { bsky_uri: uri, queued: true, doc_revision: 2 } }, 'now', 2)).toEqual({
      set: {},
      remove: ['GSI3PK', 'GSI3SK', 'next_attempt_at'],
      condition: {
        expression: '(#marker = :posted) AND (doc_revision = revision)',
        names: { '#marker': 'bsky_uri' },
        values: { ':posted': uri },
      },
    });
    for (const meta of [
      { slug, announce: { queued: true } },
      { slug, announce: { bsky_uri: 'pending', queued: true } },
      { slug, announce: { bsky_uri: uri, queued: false } },
      // The document shows an older revision (or none): the announcer writes it, so the entry stays.
      { slug, announce: { bsky_uri: uri, queued: true, doc_revision: 1 } },
      { slug, announce: { bsky_uri: uri, queued: true } },
    ]) {
      expect(listAnnouncement(meta, 'now', 2)).toEqual({ set: {}, remove: [] });
    }
  });

  it('a new revision of a listed story that reached Bluesky joins the queue due now unless it is queued already; one that never reached it is left to its announcement', () => {
    for (const marker of [uri, 'pending']) {
      expect(reviseAnnouncement({ slug, announce: { bsky_uri: marker } }, 'now')).toEqual({
        setClauses: ['#queue = if_not_exists(#queue, :announcePartition)', '#queueSort = if_not_exists(#queueSort, :dueSort)'],
        names: { '#queue': 'GSI3PK', '#queueSort': 'GSI3SK' },
        values: { ':announcePartition': 'ANNOUNCE', ':dueSort': `now#${slug}` },
      });
    }
    expect(reviseAnnouncement({ slug, announce: {} }, 'now')).toBeUndefined();
  });
});
