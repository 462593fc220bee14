import { describe, expect, it } from 'vitest';
import { claimAnnounce, completeAnnounce, giveUpAnnounce, retryAnnounceLater } from '../../../src/store/announce-items.ts';
import { dueAnnouncementsParams } from '../../../src/store/announce-queue.ts';
import { requeueAnnounce } from '../../../src/store/announce-requeue.ts';
import { PENDING } from '../../../src/store/claim-marker.ts';

const slug = '2026-10-14-story';
const key = { PK: `STORY#${slug}`, SK: 'META' };

describe('the announce writes on META', () => {
  it('a claim needs bsky_uri absent and the story still on the queue; it counts the attempt and moves the queue entry to when the claim turns stale', () => {
    const { Update } = claimAnnounce({ slug, claimId: 'c1', claimedAt: '2026-10-14T10:00:00.000Z', staleAt: '2026-10-14T10:05:00.000Z' });
    expect(Update.Key).toEqual(key);
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND ((attribute_not_exists(#marker)) AND (#queue = :announcePartition))');
    expect(Update.UpdateExpression).toBe(
      'SET #marker = :pending, claim_id = :claimId, claimed_at = :claimedAt, #attempts = if_not_exists(#attempts, :zero) + :one, #queueSort = :staleSort',
    );
    expect(Update.ExpressionAttributeNames).toEqual({ '#marker': 'bsky_uri', '#attempts': 'announce_attempts', '#queueSort': 'GSI3SK', '#queue': 'GSI3PK' });
    expect(Update.ExpressionAttributeValues).toStrictEqual({
      ':zero': 0,
      ':one': 1,
      ':staleSort': `2026-10-14T10:05:00.000Z#${slug}`,
      ':pending': PENDING,
      ':claimId': 'c1',
      ':claimedAt': '2026-10-14T10:00:00.000Z',
      ':announcePartition': 'ANNOUNCE',
    });
  });

  it('a takeover may also claim a pending marker claimed before the stale time', () => {
    const { Update } = claimAnnounce({ slug, claimId: 'c2', claimedAt: 'b', staleAt: 'c', takeOverBefore: 'a' });
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND ((attribute_not_exists(#marker) OR (#marker = :pending AND claimed_at < :staleBefore)) AND (#queue = :announcePartition))',
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':staleBefore': 'a' });
  });

  it('complete records the uri and leaves the queue, only for this claim id', () => {
    const { Update } = completeAnnounce(slug, 'c1', 'at://did:plc:x/app.bsky.feed.post/3abc');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #marker = :result REMOVE #r0, #r1, #r2, #r3, #r4, #r5');
    expect(Object.values(Update.ExpressionAttributeNames ?? {}).sort()).toEqual(
      ['bsky_uri', 'claim_id', 'claimed_at', 'GSI3PK', 'GSI3SK', 'next_attempt_at', 'last_error'].sort(),
    );
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':claimId': 'c1', ':result': 'at://did:plc:x/app.bsky.feed.post/3abc' });
  });

  it('retry later releases the claim and moves the queue entry to the retry time, keeping the error', () => {
    const { Update } = retryAnnounceLater(slug, 'c1', '2026-10-14T10:01:00.000Z', 'PDS 502');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0, #s1 = :s1, #s2 = :s2 REMOVE #r0, #r1, #r2');
    expect(Update.ExpressionAttributeValues).toMatchObject({
      ':s0': '2026-10-14T10:01:00.000Z',
      ':s1': 'PDS 502',
      ':s2': `2026-10-14T10:01:00.000Z#${slug}`,
    });
  });

  it('giving up releases the claim and leaves the queue with the error (state failed)', () => {
    const { Update } = giveUpAnnounce(slug, 'c1', 'refused');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0 REMOVE #r0, #r1, #r2, #r3, #r4, #r5');
    expect(Object.values(Update.ExpressionAttributeNames ?? {}).sort()).toEqual(
      ['bsky_uri', 'bsky_uri', 'claim_id', 'claimed_at', 'GSI3PK', 'GSI3SK', 'next_attempt_at', 'last_error'].sort(),
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
