// An atproto signing key as a DID document names it (`publicKeyMultibase` of a Multikey, or a
// did:key): base58btc multibase of a multicodec-tagged compressed point on secp256k1 (ES256K) or
// P-256 (ES256), turned into a Node KeyObject so node:crypto checks the signature.
import { createPublicKey, type KeyObject } from 'node:crypto';

export type JwtAlgorithm = 'ES256K' | 'ES256';

export interface SigningKey {
  alg: JwtAlgorithm;
  key: KeyObject;
  /** The curve's order n: atproto accepts only low-S signatures (s <= n/2). */
  order: bigint;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error('not base58btc');
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  const zeros = text.length - text.replace(/^1+/, '').length;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

// DER of SubjectPublicKeyInfo up to the key bits: id-ecPublicKey with the named curve, then a
// BIT STRING of the 33-byte compressed point, which OpenSSL reads as it is.
const EC_PUBLIC_KEY = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const CURVES = {
  ES256K: {
    prefix: [0xe7, 0x01],
    oid: [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a],
    order: 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  },
  ES256: {
    prefix: [0x80, 0x24],
    oid: [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
    order: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  },
} as const;

function spki(oid: readonly number[], point: Uint8Array): Buffer {
  const algorithm = [...EC_PUBLIC_KEY, ...oid];
  const bits = [0x03, point.length + 1, 0x00, ...point];
  const body = [0x30, algorithm.length, ...algorithm, ...bits];
  return Buffer.from([0x30, body.length, ...body]);
}

/** `did:key:z…` or a bare `z…` multikey; throws on anything else. */
export function parseSigningKey(multikey: string): SigningKey {
  const encoded = multikey.startsWith('did:key:') ? multikey.slice('did:key:'.length) : multikey;
  if (!encoded.startsWith('z') || encoded.length > 128) throw new Error('the key is not a base58btc multikey');
  const bytes = base58Decode(encoded.slice(1));
  for (const alg of ['ES256K', 'ES256'] as const) {
    const curve = CURVES[alg];
    if (bytes[0] !== curve.prefix[0] || bytes[1] !== curve.prefix[1]) continue;
    const point = bytes.slice(2);
    if (point.length !== 33) throw new Error('the key is not a compressed point');
    return { alg, key: createPublicKey({ key: spki(curve.oid, point), format: 'der', type: 'spki' }), order: curve.order };
  }
  throw new Error('the key is neither secp256k1 nor P-256');
}
