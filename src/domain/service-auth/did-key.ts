// An atproto signing key as a DID document names it, turned into a Node KeyObject so node:crypto
// checks the signature: a `Multikey` (or a did:key) is base58btc multibase of a multicodec-tagged
// compressed point on secp256k1 (ES256K) or P-256 (ES256); the older
// `EcdsaSecp256k1VerificationKey2019` / `EcdsaSecp256r1VerificationKey2019` carry the point's
// bytes untagged, compressed or not (older PLC directories still answer those).
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

/** A DID document's verification method, as far as the key goes. */
export interface VerificationKey {
  type: string;
  publicKeyMultibase: string;
}

const LEGACY_TYPES: Record<string, JwtAlgorithm> = {
  EcdsaSecp256k1VerificationKey2019: 'ES256K',
  EcdsaSecp256r1VerificationKey2019: 'ES256',
};

function keyOf(alg: JwtAlgorithm, point: Uint8Array): SigningKey {
  const compressed = point.length === 33 && (point[0] === 2 || point[0] === 3);
  const uncompressed = point.length === 65 && point[0] === 4;
  if (!compressed && !uncompressed) throw new Error('the key is not an EC point');
  const curve = CURVES[alg];
  return { alg, key: createPublicKey({ key: spki(curve.oid, point), format: 'der', type: 'spki' }), order: curve.order };
}

/** A `did:key:z…`, or a verification method; throws on anything else. */
export function parseSigningKey(source: string | VerificationKey): SigningKey {
  const method = typeof source === 'string' ? { type: 'Multikey', publicKeyMultibase: source.replace(/^did:key:/, '') } : source;
  const encoded = method.publicKeyMultibase;
  if (!encoded.startsWith('z') || encoded.length > 128) throw new Error('the key is not base58btc multibase');
  const bytes = base58Decode(encoded.slice(1));
  const legacy = LEGACY_TYPES[method.type];
  if (legacy !== undefined) return keyOf(legacy, bytes);
  if (method.type !== 'Multikey') throw new Error(`the key type ${method.type} is not one atproto uses`);
  for (const alg of ['ES256K', 'ES256'] as const) {
    const { prefix } = CURVES[alg];
    if (bytes[0] === prefix[0] && bytes[1] === prefix[1]) return keyOf(alg, bytes.slice(2));
  }
  throw new Error('the key is neither secp256k1 nor P-256');
}
