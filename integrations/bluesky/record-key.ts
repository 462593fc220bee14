// The record key of a story's post: a TID derived only from what never changes about the story
// (its slug and first-publish time), so every attempt — a retry, a takeover after a crash, a
// re-announce after a hide — writes to the same key. An ambiguous failure (lost response,
// timeout, crash) is then settled by looking at that one key instead of posting again.
//
// A TID is 64 bits: a zero bit, 53 bits of microseconds since the epoch, 10 bits of clock id,
// written as 13 characters of base32-sortable. The time is the publish time; the clock id comes
// from a hash of the slug. The publish time has millisecond precision, so the three microsecond
// digits below it come from the same hash: two stories published in the same millisecond
// collide only if both 10 bits and the 0–999 part agree (about one in a million).
import { createHash } from 'node:crypto';

const ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';
const TID_LENGTH = 13;
const CLOCK_ID_BITS = 10n;
const MAX_MICROS = (1n << 53n) - 1n;

/** The TID for a story: same slug and publish time, same key, on every machine, every time. */
export function storyRecordKey(slug: string, publishedAt: string): string {
  const ms = Date.parse(publishedAt);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`storyRecordKey: "${publishedAt}" is not an ISO time`);
  const digest = createHash('sha256').update(slug, 'utf8').digest();
  const clockId = BigInt(digest.readUInt16BE(0) & 0x3ff);
  const subMillisecond = BigInt(digest.readUInt16BE(2) % 1000);
  const micros = BigInt(ms) * 1000n + subMillisecond;
  if (micros > MAX_MICROS) throw new Error(`storyRecordKey: "${publishedAt}" is too far in the future for a TID`);
  return encodeTid((micros << CLOCK_ID_BITS) | clockId);
}

export function encodeTid(value: bigint): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < TID_LENGTH; i += 1) {
    out = (ALPHABET[Number(rest & 31n)] as string) + out;
    rest >>= 5n;
  }
  return out;
}

/** The time (epoch microseconds) and clock id a TID holds. */
export function decodeTid(tid: string): { micros: bigint; clockId: number } {
  let value = 0n;
  for (const char of tid) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`decodeTid: "${tid}" is not a TID`);
    value = (value << 5n) | BigInt(digit);
  }
  return { micros: value >> CLOCK_ID_BITS, clockId: Number(value & 0x3ffn) };
}
