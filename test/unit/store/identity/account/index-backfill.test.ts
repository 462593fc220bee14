// Which index item a scanned item gets in the one-time backfill (design.md#account-deletion), as pure params.
import { describe, expect, it } from 'vitest';
import { indexBackfillScanParams, missingIndexFor } from '../../../../../src/store/identity/account/index-backfill.ts';

const SHA = 'c'.repeat(64);
const indexOf = (item: Record<string, unknown>) => missingIndexFor(item as never)?.index.Put.Item;

describe('missingIndexFor', () => {
  it('a reproduction and a check name the story; a drift report names the story and its hash', () => {
    expect(indexOf({ PK: 'STORY#s1', SK: 'REPRO#did:plc:a' })).toEqual({ PK: 'ACCOUNT#did:plc:a', SK: 'ONSTORY#s1', slug: 's1' });
    expect(indexOf({ PK: 'STORY#s1', SK: 'CHECK#acct_b' })).toEqual({ PK: 'ACCOUNT#acct_b', SK: 'ONSTORY#s1', slug: 's1' });
    expect(indexOf({ PK: 'STORY#s1', SK: `DRIFT#${SHA}#did:plc:a` })).toEqual({
      PK: 'ACCOUNT#did:plc:a',
      SK: `ONSTORY#s1#${SHA}`,
      slug: 's1',
      sha256: SHA,
    });
  });

  it('a web session and an image record are indexed under their account, the image only where its uploader still is', () => {
    expect(indexOf({ PK: `WEBSESS#${SHA}`, SK: 'META', account: 'did:plc:a', expires_at: 5 })).toEqual({
      PK: 'ACCOUNT#did:plc:a',
      SK: `WEBSESS#${SHA}`,
      session_hash: SHA,
      expires_at: 5,
    });
    const image = missingIndexFor({ PK: `IMAGE#${SHA}`, SK: 'META', uploaded_by: 'did:plc:a' });
    expect(image?.index.Put.Item).toEqual({ PK: 'ACCOUNT#did:plc:a', SK: `IMAGE#${SHA}`, sha256: SHA });
    expect(image?.checks.map((check) => check.ConditionCheck.ConditionExpression)).toEqual([
      'attribute_exists(PK) AND #by = :by',
      'attribute_not_exists(#deleted)',
    ]);
  });

  it('the drift tally, story children and other kinds get none', () => {
    expect(missingIndexFor({ PK: 'STORY#s1', SK: `DRIFTHASH#${SHA}` })).toBeUndefined();
    expect(missingIndexFor({ PK: 'STORY#s1', SK: 'META' })).toBeUndefined();
    expect(missingIndexFor({ PK: 'TOKEN#x', SK: 'META', account: 'did:plc:a' })).toBeUndefined();
  });
});

describe('indexBackfillScanParams', () => {
  it('a bounded page, resumed from where the last one stopped', () => {
    const params = indexBackfillScanParams('t', 500, { PK: 'STORY#s1', SK: 'REPRO#x' });
    expect(params).toMatchObject({ TableName: 't', Limit: 500, ExclusiveStartKey: { PK: 'STORY#s1', SK: 'REPRO#x' } });
    expect(indexBackfillScanParams('t', 500)).not.toHaveProperty('ExclusiveStartKey');
  });
});
