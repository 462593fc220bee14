// The atproto signing key of a DID, for checking service-auth JWTs (design §17): the DID document
// from the PLC directory (did:plc) or the host's /.well-known/did.json (did:web), fetched
// SSRF-safely (the DID is whoever calls), its `#atproto` verification method returned as it is.
// Remembered for a while per process, bounded in entries, so a busy feed costs one look-up per
// viewer and not one per request; a forced refresh (after a signature fails) skips the memory.
import { LorebookError } from '../../src/domain/errors.ts';
import type { VerificationKey } from '../../src/domain/service-auth/did-key.ts';
import type { SigningKeyLookup } from '../../src/domain/service-auth/service-jwt.ts';
// Lazily: the SSRF-safe fetch and its undici dispatchers would otherwise load at every http cold start.
import { createLazySafeFetch } from '../safe-fetch/lazy-safe-fetch.ts';

export interface SigningKeyLookupOptions {
  /** did:plc documents come from here; default https://plc.directory. */
  plcDirectoryUrl?: string;
  /** Development and tests only: fetch from loopback and private addresses, over http too. */
  allowPrivateFetch: boolean;
  timeoutMs?: number;
  now?: () => number;
}

const REMEMBER_MS = 10 * 60_000;
const MAX_REMEMBERED = 10_000;
/** A DID document is a few KiB; refuse far larger answers before parsing them. */
const MAX_DOCUMENT_BYTES = 64 * 1024;

function documentUrl(did: string, plc: string): string {
  if (did.startsWith('did:plc:')) return `${plc}/${encodeURIComponent(did)}`;
  const host = decodeURIComponent(did.slice('did:web:'.length));
  return `https://${host}/.well-known/did.json`;
}

function atprotoKey(did: string, document: unknown): VerificationKey | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const { id, verificationMethod } = document as { id?: unknown; verificationMethod?: unknown };
  if (id !== did || !Array.isArray(verificationMethod)) return undefined;
  for (const method of verificationMethod as Array<Record<string, unknown>>) {
    const methodId = typeof method.id === 'string' ? method.id : '';
    const { type, publicKeyMultibase } = method;
    if ((methodId === '#atproto' || methodId === `${did}#atproto`) && typeof type === 'string' && typeof publicKeyMultibase === 'string') {
      return { type, publicKeyMultibase };
    }
  }
  return undefined;
}

const unresolvable = (did: string, why: string): LorebookError =>
  new LorebookError('unauthenticated', `The signing key of ${did} could not be found: ${why}.`, { details: { reason: 'BadJwt' } });

export function createSigningKeyLookup(options: SigningKeyLookupOptions): SigningKeyLookup {
  const fetch = createLazySafeFetch({
    allowPrivateAddresses: options.allowPrivateFetch,
    maxResponseBytes: MAX_DOCUMENT_BYTES,
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  const plc = (options.plcDirectoryUrl ?? 'https://plc.directory').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const remembered = new Map<string, { key: VerificationKey; until: number }>();

  return async (did, forceRefresh) => {
    const known = remembered.get(did);
    if (!forceRefresh && known !== undefined && known.until > now()) return known.key;
    let response: Response;
    try {
      response = await fetch(documentUrl(did, plc), { headers: { accept: 'application/json' } });
    } catch (error) {
      throw new LorebookError('upstream_failed', `The DID document of ${did} could not be fetched; try again shortly.`, { cause: error });
    }
    if (response.status === 404 || response.status === 410) throw unresolvable(did, 'no DID document');
    if (!response.ok)
      throw new LorebookError('upstream_failed', `The DID document of ${did} answered ${response.status}; try again shortly.`);
    let document: unknown;
    try {
      document = await response.json();
    } catch {
      throw unresolvable(did, 'the DID document is not JSON');
    }
    const key = atprotoKey(did, document);
    if (key === undefined) throw unresolvable(did, 'the DID document names no #atproto key');
    remembered.delete(did);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    remembered.set(did, { key, until: now() + REMEMBER_MS });
    return key;
  };
}
