import { describe, expect, it } from 'vitest';
import { MAX_OP_ID_LENGTH, parseOpId } from '../../../src/domain/op-id.ts';
import { faultFields } from './story-fixtures.ts';

describe('parseOpId', () => {
  it('accepts UUIDs, ULIDs and dotted or colon-separated keys', () => {
    for (const id of ['0b7e1a52-3c55-4a7b-9d7e-2f1c7a9e6b10', '01JD5X2Q8Y3M4N5P6R7S8T9V0W', 'app.queue:42_retry', 'a']) {
      expect(parseOpId(id)).toBe(id);
    }
  });

  it(`accepts exactly ${MAX_OP_ID_LENGTH} characters and refuses one more`, () => {
    expect(parseOpId('x'.repeat(MAX_OP_ID_LENGTH))).toHaveLength(128);
    expect(Object.keys(faultFields(() => parseOpId('x'.repeat(MAX_OP_ID_LENGTH + 1))))).toEqual(['op_id']);
  });

  it('refuses empty, spaced, slashed, hash and non-ASCII op_ids, naming op_id with how to fix it', () => {
    for (const id of ['', 'has space', 'a/b', 'OP#x', 'ünï', 'new\nline']) {
      const fields = faultFields(() => parseOpId(id));
      expect(fields.op_id).toMatch(/1 to 128 characters/);
    }
  });

  it('refuses an op_id that is not a string', () => {
    for (const value of [42, null, undefined, {}]) expect(Object.keys(faultFields(() => parseOpId(value)))).toEqual(['op_id']);
  });
});
