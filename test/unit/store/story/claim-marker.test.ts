import { describe, expect, it } from 'vitest';
import { type Claim, claimMarker, completeClaim, PENDING, releaseClaim } from '../../../../src/store/story/claim-marker.ts';

const claim: Claim = { key: { PK: 'STORY#s', SK: 'META' }, marker: 'bsky_uri', claimId: 'claim-1' };

describe('claimMarker lets one worker hold a side effect at a time', () => {
  it('claims only an absent marker: a second worker finds it pending and fails', () => {
    const { Update } = claimMarker(claim, '2026-11-02T10:00:00.000Z');
    expect(Update.Key).toEqual(claim.key);
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (attribute_not_exists(#marker))');
    expect(Update.UpdateExpression).toBe('SET #marker = :pending, claim_id = :claimId, claimed_at = :claimedAt');
    expect(Update.ExpressionAttributeNames).toEqual({ '#marker': 'bsky_uri' });
    expect(Update.ExpressionAttributeValues).toStrictEqual({
      ':pending': PENDING,
      ':claimId': 'claim-1',
      ':claimedAt': '2026-11-02T10:00:00.000Z',
    });
  });

  it('with staleBefore, also takes over a pending claim made before then (a crashed holder)', () => {
    const { Update } = claimMarker(claim, '2026-11-02T10:00:00.000Z', '2026-11-02T09:50:00.000Z');
    expect(Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND (attribute_not_exists(#marker) OR (#marker = :pending AND claimed_at < :staleBefore))',
    );
    expect(Update.ExpressionAttributeValues).toEqual({
      ':pending': PENDING,
      ':claimId': 'claim-1',
      ':claimedAt': '2026-11-02T10:00:00.000Z',
      ':staleBefore': '2026-11-02T09:50:00.000Z',
    });
  });

  it('writes the caller’s extra changes in the same update', () => {
    const { Update } = claimMarker(claim, 'now', undefined, {
      setClauses: ['#attempts = if_not_exists(#attempts, :zero) + :one'],
      names: { '#attempts': 'announce_attempts' },
      values: { ':zero': 0, ':one': 1 },
    });
    expect(Update.UpdateExpression).toBe(
      'SET #marker = :pending, claim_id = :claimId, claimed_at = :claimedAt, #attempts = if_not_exists(#attempts, :zero) + :one',
    );
    expect(Update.ExpressionAttributeNames).toEqual({ '#marker': 'bsky_uri', '#attempts': 'announce_attempts' });
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':zero': 0, ':one': 1, ':pending': PENDING });
  });
});

describe('only the holder of a claim may complete or release it', () => {
  it('completeClaim records the result only while this claim id holds the marker', () => {
    const { Update } = completeClaim(claim, 'at://did:plc:x/app.bsky.feed.post/3abc');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #marker = :result REMOVE #r0, #r1');
    expect(Update.ExpressionAttributeNames).toEqual({ '#marker': 'bsky_uri', '#r0': 'claim_id', '#r1': 'claimed_at' });
    expect(Update.ExpressionAttributeValues).toEqual({
      ':result': 'at://did:plc:x/app.bsky.feed.post/3abc',
      ':pending': PENDING,
      ':claimId': 'claim-1',
    });
  });

  it('releaseClaim removes the marker only while this claim id holds it', () => {
    const { Update } = releaseClaim(claim, { set: { last_error: 'timeout' } });
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#marker = :pending AND claim_id = :claimId)');
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0 REMOVE #r0, #r1, #r2');
    expect(Update.ExpressionAttributeNames).toEqual({
      '#marker': 'bsky_uri',
      '#s0': 'last_error',
      '#r0': 'bsky_uri',
      '#r1': 'claim_id',
      '#r2': 'claimed_at',
    });
    expect(Update.ExpressionAttributeValues).toEqual({ ':s0': 'timeout', ':pending': PENDING, ':claimId': 'claim-1' });
  });
});

describe('a claim can carry a guard of its own', () => {
  it('ands the guard after the claim condition', () => {
    const { Update } = claimMarker(
      claim,
      'now',
      undefined,
      {},
      { expression: '#q = :q', names: { '#q': 'GSI3PK' }, values: { ':q': 'ANNOUNCE' } },
    );
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND ((attribute_not_exists(#marker)) AND (#q = :q))');
    expect(Update.ExpressionAttributeNames).toEqual({ '#marker': 'bsky_uri', '#q': 'GSI3PK' });
    expect(Update.ExpressionAttributeValues).toMatchObject({ ':q': 'ANNOUNCE' });
  });
});
