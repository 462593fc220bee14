import { describe, expect, it } from 'vitest';
import { revisionsQueryParams } from '../../../src/store/story/revisions-query.ts';
import { indexQueryParams } from '../../../src/store/story/story-index-query.ts';

describe('the story list skeleton query', () => {
  it('the first page reads a feed month shard newest first, one entry more than the page', () => {
    expect(indexQueryParams('t', 'feed', { partition: 'FEED#2026-11', limit: 20 })).toEqual({
      TableName: 't',
      IndexName: 'GSI1',
      KeyConditionExpression: '#partition = :partition',
      ExpressionAttributeNames: { '#partition': 'GSI1PK' },
      ExpressionAttributeValues: { ':partition': 'FEED#2026-11' },
      ScanIndexForward: false,
      Limit: 21,
    });
  });

  it('a later page of an author list starts strictly before the last entry seen', () => {
    expect(
      indexQueryParams('t', 'author', { partition: 'AUTHOR#acct-a', before: '2026-11-30T09:00:00.000Z#2026-11-30-x', limit: 5 }),
    ).toEqual({
      TableName: 't',
      IndexName: 'GSI2',
      KeyConditionExpression: '#partition = :partition AND #sort < :before',
      ExpressionAttributeNames: { '#partition': 'GSI2PK', '#sort': 'GSI2SK' },
      ExpressionAttributeValues: { ':partition': 'AUTHOR#acct-a', ':before': '2026-11-30T09:00:00.000Z#2026-11-30-x' },
      ScanIndexForward: false,
      Limit: 6,
    });
  });
});

describe('the revision history query', () => {
  it('reads REV# items of one story oldest first, consistently, without their markdown', () => {
    const params = revisionsQueryParams('t', '2026-10-14-x');
    expect(params).toMatchObject({
      TableName: 't',
      KeyConditionExpression: '#a0 = :pk AND begins_with(#a1, :rev)',
      ExpressionAttributeValues: { ':pk': 'STORY#2026-10-14-x', ':rev': 'REV#' },
      ConsistentRead: true,
      ScanIndexForward: true,
    });
    const projected = (params.ProjectionExpression ?? '').split(', ').map((name) => params.ExpressionAttributeNames?.[name]);
    expect(projected).toEqual(['PK', 'SK', 'revision', 'kind', 'note', 'source', 'at', 'redacted', 'expires_at']);
    expect(projected).not.toContain('markdown');
    expect(params.ExclusiveStartKey).toBeUndefined();
  });

  it('a further page continues after the last key', () => {
    const startKey = { PK: 'STORY#2026-10-14-x', SK: 'REV#000003' };
    expect(revisionsQueryParams('t', '2026-10-14-x', startKey).ExclusiveStartKey).toEqual(startKey);
  });
});
