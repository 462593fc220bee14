import { describe, expect, it } from 'vitest';
import { LorebookError } from '../../../src/domain/errors.ts';
import type { StoredItem } from '../../../src/store/actions.ts';
import { lookUpOp, type OpRequest, opRecordKey, recordOp } from '../../../src/store/apply-once.ts';
import { thrownRefusal } from '../../helpers/refusal.ts';

const op: OpRequest = { account: 'acct-alice', opId: 'op-1', tool: 'set_visibility', fingerprint: 'v1:aaa' };
const NOW_MS = Date.UTC(2026, 10, 2, 10, 0, 0, 500);
const NOW_S = Math.floor(NOW_MS / 1000);

function stored(fields: Partial<StoredItem> = {}): StoredItem {
  return { ...opRecordKey(op), tool: op.tool, fingerprint: op.fingerprint, outcome: { hidden: true }, expires_at: NOW_S + 60, ...fields };
}

describe('recordOp', () => {
  it('is keyed per caller: OP#account / op_id', () => {
    expect(opRecordKey(op)).toEqual({ PK: 'OP#acct-alice', SK: 'op-1' });
  });

  it('writes the outcome and its expiry, and may replace only an absent or expired record', () => {
    const { Put } = recordOp(op, { hidden: true }, NOW_MS, 86_400);
    expect(Put.Item).toEqual({
      PK: 'OP#acct-alice',
      SK: 'op-1',
      tool: 'set_visibility',
      fingerprint: 'v1:aaa',
      outcome: { hidden: true },
      created_at: '2026-11-02T10:00:00.500Z',
      expires_at: NOW_S + 86_400,
    });
    // An expired record lingers for days before DynamoDB deletes it: it must not block a new op.
    expect(Put.ConditionExpression).toBe('attribute_not_exists(PK) OR expires_at <= :now');
    expect(Put.ExpressionAttributeValues).toEqual({ ':now': NOW_S });
    expect(Put.ExpressionAttributeNames).toBeUndefined();
  });
});

describe('lookUpOp', () => {
  it('treats a missing record as a new op', () => {
    expect(lookUpOp(undefined, op, NOW_MS)).toEqual({ kind: 'new' });
  });

  it('treats a record past its expiry as absent, whatever it holds', () => {
    expect(lookUpOp(stored({ expires_at: NOW_S - 1, fingerprint: 'v1:other' }), op, NOW_MS)).toEqual({ kind: 'new' });
    expect(lookUpOp(stored({ expires_at: NOW_S }), op, NOW_MS)).toEqual({ kind: 'new' });
  });

  it('replays the stored outcome of a live record with the same fingerprint', () => {
    expect(lookUpOp(stored({ expires_at: NOW_S + 1 }), op, NOW_MS)).toEqual({ kind: 'replay', outcome: { hidden: true } });
  });

  it('refuses a live record with a different fingerprint as idempotency_key_reused', () => {
    const error = thrownRefusal(() => lookUpOp(stored({ fingerprint: 'v1:bbb' }), op, NOW_MS));
    expect(error.code).toBe('idempotency_key_reused');
    expect(error.details).toEqual({ op_id: 'op-1', tool: 'set_visibility' });
  });

  it('refuses a live record of another tool with the same fingerprint as idempotency_key_reused', () => {
    expect(() => lookUpOp(stored({ tool: 'publish_story' }), op, NOW_MS)).toThrow(LorebookError);
  });
});
