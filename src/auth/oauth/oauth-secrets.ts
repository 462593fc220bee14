// The secrets of the authorization server and how each is stored: only sha256 hashes reach the
// table. Refresh tokens are random. The consent secret is derived from the web session's
// cookie and the authorize request, so reloading the consent page lands on the same consent
// record; the grant id and the authorization code are derived from the consent secret, so a
// double-clicked Approve recomputes the same grant and code (never a second one). Without the
// cookie (HttpOnly, never stored) none of them can be recomputed from the table.
import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../../domain/canonical-json.ts';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The stored form of any secret: sha256 hex. */
export const secretHash = (secret: string): string => sha256(secret).toString('hex');

export const mintRefreshToken = (): string => `lbr_${randomBytes(32).toString('base64url')}`;
export const isWellFormedRefreshToken = (value: string): boolean => /^lbr_[A-Za-z0-9_-]{43}$/.test(value);

export function consentSecretFor(sessionCookie: string, request: Record<string, unknown>): string {
  return sha256(`lorebook consent\u0000${sessionCookie}\u0000${canonicalJson(request)}`).toString('base64url');
}

export const grantIdFor = (consentSecret: string): string => sha256(`lorebook grant\u0000${consentSecret}`).toString('hex').slice(0, 32);
export const authorizationCodeFor = (consentSecret: string): string =>
  `lba_${sha256(`lorebook code\u0000${consentSecret}`).toString('base64url')}`;

/** A client_id is derived from what the client registered: the same registration twice is one client. */
export const clientIdFor = (metadata: Record<string, unknown>): string => `lbc_${secretHash(canonicalJson(metadata)).slice(0, 32)}`;
