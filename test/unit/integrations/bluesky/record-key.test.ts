import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeTid, encodeTid, storyRecordKey } from '../../../../integrations/bluesky/record-key.ts';

const slug = '2026-10-14-my-counter-doubled';
const publishedAt = '2026-10-14T10:00:00.000Z';

describe("a story's record key is a TID derived only from its slug and publish time", () => {
  it('is the same on every call, every machine: a pinned value (checked against @atproto/common-web TID.fromTime)', () => {
    expect(storyRecordKey(slug, publishedAt)).toBe('3mxtbzc5u4vyn');
    expect(storyRecordKey(slug, publishedAt)).toBe(storyRecordKey(slug, publishedAt));
  });

  it('holds the publish time in microseconds and a clock id from the slug’s hash', () => {
    const digest = createHash('sha256').update(slug).digest();
    const { micros, clockId } = decodeTid(storyRecordKey(slug, publishedAt));
    expect(clockId).toBe(digest.readUInt16BE(0) & 0x3ff);
    expect(micros).toBe(BigInt(Date.parse(publishedAt)) * 1000n + BigInt(digest.readUInt16BE(2) % 1000));
  });

  it('is a valid TID: 13 base32-sortable characters, the top bit zero', () => {
    for (const at of ['1970-01-01T00:00:00.000Z', publishedAt, '2200-01-01T00:00:00.000Z']) {
      expect(storyRecordKey(slug, at)).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
    }
  });

  it('differs for another slug at the same time, and for the same slug at another time', () => {
    expect(storyRecordKey('2026-10-14-another', publishedAt)).not.toBe(storyRecordKey(slug, publishedAt));
    expect(storyRecordKey(slug, '2026-10-14T10:00:00.001Z')).not.toBe(storyRecordKey(slug, publishedAt));
  });

  it('sorts by publish time, like every TID', () => {
    const keys = ['2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'].map((at) => storyRecordKey(slug, at));
    expect([...keys].sort()).toEqual(keys);
  });

  it('refuses a time that is not one', () => {
    expect(() => storyRecordKey(slug, 'yesterday')).toThrow(/not an ISO time/);
  });

  it('encodes and decodes round trip', () => {
    const value = (1791972000000091n << 10n) | 979n;
    expect(encodeTid(value)).toBe('3mxtbzc5u4vyn');
    expect(decodeTid('3mxtbzc5u4vyn')).toEqual({ micros: 1791972000000091n, clockId: 979 });
    expect(() => decodeTid('not-a-tid!!!!')).toThrow(/not a TID/);
  });
});
