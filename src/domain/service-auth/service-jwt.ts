// Checking an atproto service-auth JWT, the bearer token Bluesky's AppView or a viewer's PDS
// sends a feed generator (design.md#feeds): ES256K or ES256, signed by the `iss` account's atproto
// signing key; `aud` must be this service's DID and `lxm` the method called; not expired. What is
// checked and why is in docs/pages.md. The key comes from the caller's resolver: on a bad
// signature it is asked once more with forceRefresh, as a rotated key would look stale.
import { verify } from 'node:crypto';
import { LorebookError } from '../errors.ts';
import { parseSigningKey, type SigningKey, type VerificationKey } from './did-key.ts';

export interface ServiceAuthClaims {
  /** The viewer's DID. */
  iss: string;
  aud: string;
  exp: number;
  lxm: string;
  /** The token's nonce, when the signer gave one (Bluesky's always do). */
  jti?: string;
}

/** Resolves a DID to its atproto signing key (its `#atproto` verification method); forceRefresh skips any cache. */
export type SigningKeyLookup = (did: string, forceRefresh: boolean) => Promise<VerificationKey>;

export interface VerifyServiceJwtOptions {
  /** This service's DID: the only audience accepted. */
  audience: string;
  /** The XRPC method called (lxm). */
  method: string;
  nowMs: number;
  signingKey: SigningKeyLookup;
}

/** JWTs are a few hundred bytes; anything far past that is not one. */
const MAX_JWT_CHARS = 4096;
/** Clocks differ: a token issued this far "in the future" is still accepted. */
const CLOCK_SKEW_SECONDS = 60;
const DID = /^did:(plc:[a-z2-7]{24}|web:[A-Za-z0-9.%-]+)$/;
const NSID = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+$/;
/** Token types that belong to other flows (access, refresh, DPoP) and must never pass as service auth. */
const FOREIGN_TYPES = new Set(['at+jwt', 'refresh+jwt', 'dpop+jwt']);

const refuse = (reason: string, message: string): LorebookError => new LorebookError('unauthenticated', message, { details: { reason } });

function jsonPart(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw refuse('BadJwt', `The token's ${what} is not base64url JSON.`);
}

function claimsOf(payload: Record<string, unknown>): ServiceAuthClaims {
  const { iss, aud, exp, lxm, jti } = payload;
  if (typeof iss !== 'string' || !DID.test(iss)) throw refuse('BadJwt', 'The token\'s "iss" must be the DID of the account it speaks for.');
  if (typeof aud !== 'string') throw refuse('BadJwt', 'The token has no "aud".');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw refuse('BadJwt', 'The token has no "exp".');
  if (typeof lxm !== 'string' || !NSID.test(lxm))
    throw refuse('BadJwtLexiconMethod', 'The token has no "lxm" naming the method it is for.');
  if (jti !== undefined && (typeof jti !== 'string' || !/^[A-Za-z0-9._:-]{1,128}$/.test(jti)))
    throw refuse('BadJwt', 'The token\'s "jti" must be 1-128 letters, digits or . _ : -.');
  return { iss, aud, exp, lxm, ...(jti === undefined ? {} : { jti }) };
}

function signatureHolds(key: SigningKey, signed: string, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  if (s > key.order / 2n) return false;
  return verify('sha256', Buffer.from(signed, 'utf8'), { key: key.key, dsaEncoding: 'ieee-p1363' }, signature);
}

async function keyFor(lookup: SigningKeyLookup, did: string, forceRefresh: boolean): Promise<SigningKey> {
  const method = await lookup(did, forceRefresh);
  try {
    return parseSigningKey(method);
  } catch (error) {
    throw refuse('BadJwtSignature', `The signing key of ${did} cannot be read: ${(error as Error).message}.`);
  }
}

export async function verifyServiceJwt(token: string, options: VerifyServiceJwtOptions): Promise<ServiceAuthClaims> {
  if (token.length > MAX_JWT_CHARS) throw refuse('BadJwt', 'The token is too long to be a service-auth JWT.');
  const parts = token.split('.');
  if (parts.length !== 3) throw refuse('BadJwt', 'The token is not a JWT (three base64url parts).');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = jsonPart(headerPart, 'header');
  if (header.alg !== 'ES256K' && header.alg !== 'ES256') throw refuse('BadJwt', 'The token must be signed with ES256K or ES256.');
  if (typeof header.typ === 'string' && FOREIGN_TYPES.has(header.typ)) throw refuse('BadJwt', `A ${header.typ} token is not service auth.`);
  const payload = jsonPart(payloadPart, 'payload');
  const claims = claimsOf(payload);
  const nowSeconds = options.nowMs / 1000;
  if (claims.exp <= nowSeconds) throw refuse('JwtExpired', 'The token has expired; ask for a fresh one.');
  if (typeof payload.iat === 'number' && payload.iat > nowSeconds + CLOCK_SKEW_SECONDS)
    throw refuse('BadJwt', 'The token was issued in the future.');
  if (claims.aud !== options.audience)
    throw refuse('BadJwtAudience', `The token is for ${claims.aud}, not this feed generator (${options.audience}).`);
  if (claims.lxm !== options.method) throw refuse('BadJwtLexiconMethod', `The token is for ${claims.lxm}, not ${options.method}.`);

  const signed = `${headerPart}.${payloadPart}`;
  const signature = Buffer.from(signaturePart, 'base64url');
  for (const forceRefresh of [false, true]) {
    const key = await keyFor(options.signingKey, claims.iss, forceRefresh);
    if (key.alg === header.alg && signatureHolds(key, signed, signature)) return claims;
  }
  throw refuse('BadJwtSignature', `The token is not signed by the atproto signing key of ${claims.iss}.`);
}
