// The two codes of the device flow (RFC 8628 §6.1): the device code, a 32-byte secret the script
// polls with (stored only as its sha256), and the user code a person types: 8 letters from a
// 20-consonant alphabet (no vowels, so no words; no look-alikes), shown as XXXX-XXXX. 20^8 is
// about 2.6e10 codes against a 10-minute lifetime.
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

const DEVICE_CODE_PREFIX = 'lbd_';
const DEVICE_CODE_SHAPE = /^lbd_[A-Za-z0-9_-]{43}$/;
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

export function mintDeviceCode(): string {
  return `${DEVICE_CODE_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The device code of a start sent with an Idempotency-Key: HMAC-SHA256(key, salt). A replay with
 * the same key gets the same code back, and the store holds only the salt and the key's hash.
 */
export function deriveDeviceCode(idempotencyKey: string, salt: string): string {
  return `${DEVICE_CODE_PREFIX}${createHmac('sha256', idempotencyKey).update(salt, 'utf8').digest('base64url')}`;
}

export function mintSalt(): string {
  return randomBytes(32).toString('base64url');
}

export function isWellFormedDeviceCode(value: string): boolean {
  return DEVICE_CODE_SHAPE.test(value);
}

export function deviceCodeHash(deviceCode: string): string {
  return createHash('sha256').update(deviceCode, 'utf8').digest('hex');
}

export function mintUserCode(): string {
  const letters = Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** What a person typed, as stored (XXXX-XXXX), or undefined when it cannot be a user code. */
export function normalizeUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length !== USER_CODE_LENGTH || [...letters].some((letter) => !USER_CODE_ALPHABET.includes(letter))) return undefined;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}
