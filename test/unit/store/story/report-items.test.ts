import { describe, expect, it } from 'vitest';
import { reproductionKey } from '../../../../src/store/keys.ts';
import { checkItem, deleteItemIf, replaceItem } from '../../../../src/store/replace-by-key.ts';
import { checkReportItem, sameCheckReport } from '../../../../src/store/story/check-items.ts';
import { nothingReported, stillReported, unchangedSince } from '../../../../src/store/story/report-items.ts';
import { reproducerCounter, reproductionItem, sameReproduction } from '../../../../src/store/story/reproduction-items.ts';

const read = { result: 'worked', counted: true, at: '2026-10-14T10:00:00.000Z' };
const key = reproductionKey('2026-10-14-a-story', 'acct-bob');

describe('a per-account report is written only against what was read', () => {
  it('a change or withdraw is conditioned on the result and counted flag it read', () => {
    expect(deleteItemIf(key, stillReported(read))).toEqual({
      Delete: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'REPRO#acct-bob' },
        ConditionExpression: '#result = :old AND #counted = :counted',
        ExpressionAttributeNames: { '#result': 'result', '#counted': 'counted' },
        ExpressionAttributeValues: { ':old': 'worked', ':counted': true },
      },
    });
  });

  it("an identical report's op guard checks the report still carries the time it was read with", () => {
    expect(checkItem(key, unchangedSince(read))).toEqual({
      ConditionCheck: {
        Key: { PK: 'STORY#2026-10-14-a-story', SK: 'REPRO#acct-bob' },
        ConditionExpression: '#at = :at',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':at': '2026-10-14T10:00:00.000Z' },
      },
    });
  });

  it("a withdraw that found nothing guards its op with the report's absence", () => {
    expect(checkItem(key, nothingReported)).toEqual({ ConditionCheck: { Key: key, ConditionExpression: 'attribute_not_exists(PK)' } });
  });

  it('a reproduction item stores only the fields it has, at REPRO#account', () => {
    const item = reproductionItem({
      slug: '2026-10-14-a-story',
      account: 'acct-bob',
      result: 'partial',
      note: undefined,
      counted: true,
      at: read.at,
      tokens: 12,
    });
    expect(replaceItem(item).Put.Item).toEqual({
      PK: 'STORY#2026-10-14-a-story',
      SK: 'REPRO#acct-bob',
      slug: '2026-10-14-a-story',
      account: 'acct-bob',
      result: 'partial',
      counted: true,
      at: read.at,
      tokens: 12,
    });
  });

  it('a check item lives at CHECK#account', () => {
    expect(checkReportItem({ slug: 's', account: 'a', result: 'no_problem', counted: false, at: read.at })).toMatchObject({
      PK: 'STORY#s',
      SK: 'CHECK#a',
    });
  });

  it("measurements are not part of a reproduction report's identity; note, agent and env are", () => {
    expect(sameReproduction({ result: 'worked', note: 'n' }, { result: 'worked', note: 'n' })).toBe(true);
    expect(sameReproduction({ result: 'worked' }, { result: 'failed' })).toBe(false);
    expect(sameReproduction({ result: 'worked', note: 'a' }, { result: 'worked', note: 'b' })).toBe(false);
    expect(sameReproduction({ result: 'worked', agent: 'a' }, { result: 'worked' })).toBe(false);
    expect(sameReproduction({ result: 'worked', env: 'a' }, { result: 'worked' })).toBe(false);
    expect(sameCheckReport({ result: 'has_problem', note: 'x' }, { result: 'has_problem', note: 'x' })).toBe(true);
    expect(sameCheckReport({ result: 'has_problem' }, { result: 'no_problem' })).toBe(false);
    expect(sameCheckReport({ result: 'has_problem', note: 'x' }, { result: 'has_problem' })).toBe(false);
  });

  it('the reproducer counter is the story META with its reproducers list and counts map; a new account moves new_counts', () => {
    expect(reproducerCounter('s', { account: 'a' })).toEqual({
      key: { PK: 'STORY#s', SK: 'META' },
      list: 'reproducers',
      counts: 'counts',
      member: 'a',
    });
    expect(reproducerCounter('s', { account: 'a', new_account: true })).toMatchObject({ list: 'reproducers', counts: 'new_counts' });
  });
});
