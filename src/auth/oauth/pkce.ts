// PKCE (RFC 7636), S256 only (OAuth 2.1 and the MCP authorization spec): `plain` sends the
// verifier itself through the browser and protects nothing.
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
/** base64url of a sha256: 43 characters. */
const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const isCodeChallenge = (value: string): boolean => CHALLENGE_SHAPE.test(value);
export const isCodeVerifier = (value: string): boolean => VERIFIER_SHAPE.test(value);

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether the verifier hashes to the challenge; compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isCodeChallenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256(verifier)), Buffer.from(challenge));
}
