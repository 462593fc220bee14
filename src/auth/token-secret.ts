// The bearer token itself: `lbk_` + 32 random bytes in base64url. Only its sha256 is stored, so a
// leaked table cannot be replayed as tokens; the hash doubles as the token's public id.
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'lbk_';
const SECRET_BYTES = 32;
/** 32 bytes of base64url without padding are 43 characters. */
const TOKEN_SHAPE = /^lbk_[A-Za-z0-9_-]{43}$/;
const TOKEN_ID_SHAPE = /^[0-9a-f]{64}$/;

export function mintToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** Decided without a read: a malformed token costs no round trip. */
export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** The token's id: the sha256 hex of the plaintext, what the store keys it by. */
export function tokenId(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function isTokenId(value: string): boolean {
  return TOKEN_ID_SHAPE.test(value);
}
