// Binds a pending Bluesky sign-in to the browser that started it (login CSRF). /auth/login sets
// a cookie holding a random nonce and stores only the nonce's sha256 with the pending sign-in;
// /auth/callback goes on only when the browser's cookie hashes to the stored value. Without it,
// anyone who opened an attacker's callback URL would be signed in as the attacker (and a device
// code they approved next would mint a token for the attacker's account).
// The cookie is SameSite=Lax: it rides on the PDS's top-level redirect back to the callback.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse } from 'hono/utils/cookie';

export const SIGN_IN_BINDING_COOKIE = 'lorebook_sign_in';
/** Scoped to the sign-in routes: /auth/login reuses it for a second tab, /auth/callback checks it. */
export const SIGN_IN_BINDING_COOKIE_PATH = '/auth';

/** 32 bytes of base64url without padding are 43 characters. */
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const bindingHash = (nonce: string): string =>
  createHash('sha256').update(`lorebook sign-in binding\u0000${nonce}`, 'utf8').digest('hex');

/** The browser's nonce from its Cookie header, when it has the shape of one. */
export function bindingNonce(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined || cookieHeader === '') return undefined;
  const value = parse(cookieHeader, SIGN_IN_BINDING_COOKIE)[SIGN_IN_BINDING_COOKIE];
  return value !== undefined && NONCE_SHAPE.test(value) ? value : undefined;
}

/**
 * The nonce this sign-in is bound to: the browser's own when it has one (two tabs signing in at
 * once both stay valid), a fresh one otherwise.
 */
export const nonceFor = (cookieHeader: string | undefined): string => bindingNonce(cookieHeader) ?? randomBytes(32).toString('base64url');

/** Whether the browser's cookie is the one the pending sign-in was bound to; constant time. */
export function sameBrowser(storedHash: string | undefined, cookieHeader: string | undefined): boolean {
  const nonce = bindingNonce(cookieHeader);
  if (storedHash === undefined || nonce === undefined) return false;
  const left = Buffer.from(storedHash);
  const right = Buffer.from(bindingHash(nonce));
  return left.length === right.length && timingSafeEqual(left, right);
}
