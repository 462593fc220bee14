import { describe, expect, it } from 'vitest';
import { storyKey } from '../../../src/store/keys.ts';
import {
  type CounterTarget,
  countMember,
  moveMemberCount,
  shiftCounts,
  uncountMember,
} from '../../../src/store/list-conditioned-counter.ts';

const target: CounterTarget = { key: storyKey('2026-10-14-a-story'), list: 'reproducers', counts: 'counts', member: 'acct-bob' };

describe('the list-conditioned counter moves a count only together with list membership', () => {
  it('countMember adds the member and bumps the bucket only if the member is absent and the list is under the cap', () => {
    expect(countMember(target, 'worked', 3)).toEqual({
      Update: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'META' },
        UpdateExpression: 'SET #counts.#bucket = #counts.#bucket + :one ADD #list :memberSet',
        ConditionExpression:
          '(attribute_exists(PK)) AND (NOT contains(#list, :member) AND (attribute_not_exists(#list) OR size(#list) < :cap))',
        ExpressionAttributeNames: { '#counts': 'counts', '#bucket': 'worked', '#list': 'reproducers' },
        ExpressionAttributeValues: { ':one': 1, ':memberSet': new Set(['acct-bob']), ':member': 'acct-bob', ':cap': 3 },
      },
    });
  });

  it('moveMemberCount moves one count between buckets only while the member is counted', () => {
    expect(moveMemberCount(target, 'worked', 'failed')).toEqual({
      Update: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'META' },
        UpdateExpression: 'SET #counts.#from = #counts.#from - :one, #counts.#to = #counts.#to + :one',
        ConditionExpression: '(attribute_exists(PK)) AND (contains(#list, :member))',
        ExpressionAttributeNames: { '#counts': 'counts', '#from': 'worked', '#to': 'failed', '#list': 'reproducers' },
        ExpressionAttributeValues: { ':one': 1, ':member': 'acct-bob' },
      },
    });
  });

  it('uncountMember removes the member and takes back its count only while it is counted', () => {
    expect(uncountMember(target, 'partial')).toEqual({
      Update: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'META' },
        UpdateExpression: 'SET #counts.#bucket = #counts.#bucket - :one DELETE #list :memberSet',
        ConditionExpression: '(attribute_exists(PK)) AND (contains(#list, :member))',
        ExpressionAttributeNames: { '#counts': 'counts', '#bucket': 'partial', '#list': 'reproducers' },
        ExpressionAttributeValues: { ':one': 1, ':memberSet': new Set(['acct-bob']), ':member': 'acct-bob' },
      },
    });
  });

  it('shiftCounts moves counts with no list, only on an existing story', () => {
    expect(shiftCounts(storyKey('2026-10-14-a-story'), 'counts', { has_problem: -1, no_problem: 1 })).toEqual({
      Update: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'META' },
        UpdateExpression: 'SET #counts.#b0 = #counts.#b0 + :d0, #counts.#b1 = #counts.#b1 + :d1',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#counts': 'counts', '#b0': 'has_problem', '#b1': 'no_problem' },
        ExpressionAttributeValues: { ':d0': -1, ':d1': 1 },
      },
    });
  });
});
