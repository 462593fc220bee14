// The service-auth JWT check a feed generator makes (design.md#feeds), against tokens made by
// atproto's own signer (@atproto/xrpc-server's createServiceJwt with @atproto/crypto keypairs,
// what a PDS uses): each rule refuses on its own, with the XRPC error name in details.reason.
import { type Keypair, P256Keypair, Secp256k1Keypair } from '@atproto/crypto';
import { createServiceJwt } from '@atproto/xrpc-server';
import { describe, expect, it } from 'vitest';
import type { VerificationKey } from '../../../../src/domain/service-auth/did-key.ts';
import { type SigningKeyLookup, verifyServiceJwt } from '../../../../src/domain/service-auth/service-jwt.ts';

const ISS = 'did:plc:abcdefghijklmnopqrstuvwx';
const AUD = 'did:web:lorebook.test';
const LXM = 'app.bsky.feed.sendInteractions';
const NOW = Date.UTC(2026, 11, 1, 12);

const multikeyOf = (keypair: Keypair): VerificationKey => ({
  type: 'Multikey',
  publicKeyMultibase: keypair.did().slice('did:key:'.length),
});
const lookupOf =
  (keypair: Keypair): SigningKeyLookup =>
  async () =>
    multikeyOf(keypair);

async function token(keypair: Keypair, overrides: { aud?: string; lxm?: string; exp?: number; iat?: number } = {}): Promise<string> {
  return createServiceJwt({
    iss: ISS,
    aud: overrides.aud ?? AUD,
    lxm: overrides.lxm ?? LXM,
    iat: overrides.iat ?? NOW / 1000,
    exp: overrides.exp ?? NOW / 1000 + 60,
    keypair,
  });
}

const verify = (jwt: string, lookup: SigningKeyLookup) =>
  verifyServiceJwt(jwt, { audience: AUD, method: LXM, nowMs: NOW, signingKey: lookup });

const reasonOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'accepted',
    (error: { code?: string; details?: { reason?: string } }) => (error.code === 'unauthenticated' ? error.details?.reason : error),
  );

/** Re-encodes a JWT part after changing it. */
const rewrite = (jwt: string, part: 0 | 1, change: (json: Record<string, unknown>) => Record<string, unknown>): string => {
  const parts = jwt.split('.');
  const json = JSON.parse(Buffer.from(parts[part] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
  parts[part] = Buffer.from(JSON.stringify(change(json)), 'utf8').toString('base64url');
  return parts.join('.');
};

describe('verifyServiceJwt', () => {
  it.each([
    ['ES256K (secp256k1)', Secp256k1Keypair],
    ['ES256 (P-256)', P256Keypair],
  ])('accepts a token signed with %s by the iss key, and answers its claims', async (_name, Kind) => {
    const keypair = await Kind.create();
    const claims = await verify(await token(keypair), lookupOf(keypair));
    expect(claims).toMatchObject({ iss: ISS, aud: AUD, lxm: LXM, exp: NOW / 1000 + 60, jti: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('refuses a token another key signed', async () => {
    const signer = await Secp256k1Keypair.create();
    expect(await reasonOf(verify(await token(signer), lookupOf(await Secp256k1Keypair.create())))).toBe('BadJwtSignature');
  });

  it('refuses the high-S twin of a valid signature (atproto accepts low-S only)', async () => {
    const keypair = await Secp256k1Keypair.create();
    const jwt = await token(keypair);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const bytes = Buffer.from(signature, 'base64url');
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${bytes.subarray(32).toString('hex')}`);
    const twin = Buffer.concat([bytes.subarray(0, 32), Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex')]);
    expect(await reasonOf(verify(jwt, lookupOf(keypair)))).toBe('accepted');
    expect(await reasonOf(verify(`${header}.${payload}.${twin.toString('base64url')}`, lookupOf(keypair)))).toBe('BadJwtSignature');
  });

  it('refuses a header that claims another algorithm than the key', async () => {
    const keypair = await Secp256k1Keypair.create();
    expect(
      await reasonOf(
        verify(
          rewrite(await token(keypair), 0, (h) => ({ ...h, alg: 'ES256' })),
          lookupOf(keypair),
        ),
      ),
    ).toBe('BadJwtSignature');
    expect(
      await reasonOf(
        verify(
          rewrite(await token(keypair), 0, (h) => ({ ...h, alg: 'none' })),
          lookupOf(keypair),
        ),
      ),
    ).toBe('BadJwt');
  });

  it('refuses access, refresh and DPoP tokens', async () => {
    const keypair = await Secp256k1Keypair.create();
    for (const typ of ['at+jwt', 'refresh+jwt', 'dpop+jwt']) {
      expect(
        await reasonOf(
          verify(
            rewrite(await token(keypair), 0, (h) => ({ ...h, typ })),
            lookupOf(keypair),
          ),
        ),
      ).toBe('BadJwt');
    }
  });

  it('refuses an expired token, one issued in the future, another audience and another method', async () => {
    const keypair = await Secp256k1Keypair.create();
    const lookup = lookupOf(keypair);
    expect(await reasonOf(verify(await token(keypair, { exp: NOW / 1000 - 1 }), lookup))).toBe('JwtExpired');
    expect(await reasonOf(verify(await token(keypair, { iat: NOW / 1000 + 3600, exp: NOW / 1000 + 7200 }), lookup))).toBe('BadJwt');
    expect(await reasonOf(verify(await token(keypair, { aud: 'did:web:elsewhere.example' }), lookup))).toBe('BadJwtAudience');
    expect(await reasonOf(verify(await token(keypair, { lxm: 'app.bsky.feed.getFeedSkeleton' }), lookup))).toBe('BadJwtLexiconMethod');
  });

  it('refuses an iss that is not a DID, and strings that are not JWTs, without looking a key up', async () => {
    const keypair = await Secp256k1Keypair.create();
    let lookups = 0;
    const counting: SigningKeyLookup = async () => {
      lookups += 1;
      return multikeyOf(keypair);
    };
    expect(
      await reasonOf(
        verify(
          rewrite(await token(keypair), 1, (p) => ({ ...p, iss: 'alice' })),
          counting,
        ),
      ),
    ).toBe('BadJwt');
    expect(await reasonOf(verify('a.b', counting))).toBe('BadJwt');
    expect(await reasonOf(verify(`${'x'.repeat(5000)}.y.z`, counting))).toBe('BadJwt');
    expect(lookups).toBe(0);
  });

  it('asks for the key again, skipping any cache, when the remembered one fails (a rotated key)', async () => {
    const old = await Secp256k1Keypair.create();
    const current = await Secp256k1Keypair.create();
    const asked: boolean[] = [];
    const rotating: SigningKeyLookup = async (_did, forceRefresh) => {
      asked.push(forceRefresh);
      return multikeyOf(forceRefresh ? current : old);
    };
    expect(await verify(await token(current), rotating)).toMatchObject({ iss: ISS });
    expect(asked).toEqual([false, true]);
  });

  it('reads the older untagged verification method types, compressed or not', async () => {
    const keypair = await Secp256k1Keypair.create();
    const jwt = await token(keypair);
    const compressed = keypair.publicKeyBytes();
    const legacy =
      (bytes: Uint8Array): SigningKeyLookup =>
      async () => ({
        type: 'EcdsaSecp256k1VerificationKey2019',
        publicKeyMultibase: `z${base58(bytes)}`,
      });
    expect(await reasonOf(verify(jwt, legacy(compressed)))).toBe('accepted');
    expect(await reasonOf(verify(jwt, async () => ({ type: 'JsonWebKey2020', publicKeyMultibase: 'zabc' })))).toBe('BadJwtSignature');
  });
});

function base58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}
