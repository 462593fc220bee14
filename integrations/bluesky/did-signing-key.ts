// The atproto signing key of a DID, for checking service-auth JWTs (design.md#feeds): the DID document
// from the PLC directory (did:plc) or the host's /.well-known/did.json (did:web), fetched
// SSRF-safely (the DID is whoever calls), its `#atproto` verification method returned as it is.
// Remembered for a while per process, bounded in entries, so a busy feed costs one look-up per
// viewer and not one per request; a forced refresh (after a signature fails) skips the memory,
// but at most once per refreshFloorMs for a DID, so a real DID with forged signatures cannot make
// every request a fetch. A failed look-up is remembered too (failureCacheMs), the same DID asked
// at once shares one fetch, and every fetch spends the asker's budget first and takes one of the
// process's slots (design.md#admission).
import { LorebookError } from '../../src/domain/errors.ts';
import type { VerificationKey } from '../../src/domain/service-auth/did-key.ts';
import { type FetchSlots, FetchSlotsFull } from '../safe-fetch/fetch-slots.ts';
// Lazily: the SSRF-safe fetch and its undici dispatchers would otherwise load at every http cold start.
import { createLazySafeFetch } from '../safe-fetch/lazy-safe-fetch.ts';

export interface SigningKeyResolverOptions {
  /** did:plc documents come from here; default https://plc.directory. */
  plcDirectoryUrl?: string;
  /** Development and tests only: fetch from loopback and private addresses, over http too. */
  allowPrivateFetch: boolean;
  timeoutMs?: number;
  now?: () => number;
  /** A failed look-up is answered from memory this long. */
  failureCacheMs: number;
  /** A key fetched less than this long ago is not fetched again, even when forced. */
  refreshFloorMs: number;
  /** The process's outbound fetch slots; none: unbounded (tests of this module alone). */
  slots?: FetchSlots;
}

/** Resolves a DID to its #atproto key; `spend` is called before a fetch is made, and throws when the asker's budget is spent. */
export type SigningKeyResolver = (did: string, forceRefresh: boolean, spend: () => Promise<void>) => Promise<VerificationKey>;

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

type Remembered = { key: VerificationKey; fetchedAt: number; until: number } | { failure: unknown; until: number };

export function createSigningKeyResolver(options: SigningKeyResolverOptions): SigningKeyResolver {
  const fetch = createLazySafeFetch({
    allowPrivateAddresses: options.allowPrivateFetch,
    maxResponseBytes: MAX_DOCUMENT_BYTES,
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  const plc = (options.plcDirectoryUrl ?? 'https://plc.directory').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const remembered = new Map<string, Remembered>();
  /** Look-ups on their way, so the same DID asked at once is fetched once. */
  const inFlight = new Map<string, Promise<VerificationKey>>();

  const remember = (did: string, entry: Remembered): void => {
    remembered.delete(did);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    remembered.set(did, entry);
  };

  const fetchKey = async (did: string): Promise<VerificationKey> => {
    let document: unknown;
    const exchange = async (): Promise<void> => {
      let response: Response;
      try {
        response = await fetch(documentUrl(did, plc), { headers: { accept: 'application/json' } });
      } catch (error) {
        throw new LorebookError('upstream_failed', `The DID document of ${did} could not be fetched; try again shortly.`, { cause: error });
      }
      if (response.status === 404 || response.status === 410) throw unresolvable(did, 'no DID document');
      if (!response.ok)
        throw new LorebookError('upstream_failed', `The DID document of ${did} answered ${response.status}; try again shortly.`);
      try {
        document = await response.json();
      } catch {
        throw unresolvable(did, 'the DID document is not JSON');
      }
    };
    await (options.slots === undefined ? exchange() : options.slots.run(exchange));
    const key = atprotoKey(did, document);
    if (key === undefined) throw unresolvable(did, 'the DID document names no #atproto key');
    return key;
  };

  return async (did, forceRefresh, spend) => {
    const known = remembered.get(did);
    const at = now();
    if (known !== undefined && known.until > at) {
      if ('failure' in known) throw known.failure;
      if (!forceRefresh || at - known.fetchedAt < options.refreshFloorMs) return known.key;
    }
    const pending = inFlight.get(did);
    if (pending !== undefined) return pending;
    const lookUp = (async (): Promise<VerificationKey> => {
      // The asker pays before anything is fetched; a refusal leaves nothing remembered.
      await spend();
      try {
        const key = await fetchKey(did);
        remember(did, { key, fetchedAt: now(), until: now() + REMEMBER_MS });
        return key;
      } catch (failure) {
        // No slot was free: nothing was learned about the DID, so nothing is remembered.
        if (failure instanceof FetchSlotsFull)
          throw new LorebookError(
            'upstream_failed',
            `Too many look-ups are on their way; the DID document of ${did} was not fetched. Try again shortly.`,
            {
              cause: failure,
            },
          );
        remember(did, { failure, until: now() + options.failureCacheMs });
        throw failure;
      }
    })();
    inFlight.set(did, lookUp);
    try {
      return await lookUp;
    } finally {
      inFlight.delete(did);
    }
  };
}
