// A fetch for URLs that strangers choose (a handle's PDS, a did:web host, OAuth metadata; later
// images): it never reaches this machine or its private network (SSRF), and every answer is
// bounded in size and time.
//
// Built on @atproto-labs/fetch-node's safeFetchWrap, the guard atproto's own PDS uses, which
//   - refuses a literal non-unicast IP in the URL (loopback, private, link-local, unique-local,
//     CGNAT, multicast, unspecified, reserved; IPv4-mapped IPv6 judged as the IPv4 address);
//   - resolves every host name at connect time through an undici Agent whose `connect.lookup`
//     refuses the connection if any resolved address is non-unicast, so the address connected
//     to is the one checked (no DNS-rebinding window between a check and the connect);
//   - applies that same URL policy to every redirect hop, inside the dispatcher (fetch follows
//     redirects above it), so no redirect leads to a private target;
//   - allows https only, on the default port (no http, no port scanning);
//   - aborts the whole call (redirects included) after `timeoutMs` and refuses a body past
//     `maxResponseBytes`.
// `allowPrivateAddresses` turns the address and protocol rules off (the bounds stay): only for
// development and tests against a PDS on 127.0.0.1, never by default.
import { safeFetchWrap } from '@atproto-labs/fetch-node';

export interface SafeFetchOptions {
  /** Development and tests only: allow loopback and private targets, http and any port. */
  allowPrivateAddresses: boolean;
  /** Largest answer body read, in bytes (default 512 KiB: DID documents and OAuth metadata are a few KiB). */
  maxResponseBytes?: number;
  /** The whole call, redirects included, ends within this (default 10 s). */
  timeoutMs?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 512 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

export function createSafeFetch(options: SafeFetchOptions): typeof globalThis.fetch {
  const guarded = safeFetchWrap({
    fetch: globalThis.fetch,
    ssrfProtection: !options.allowPrivateAddresses,
    responseMaxSize: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // Callers (the atproto resolvers among them) pass a Request without saying how to redirect;
    // following is safe because every hop is checked by the dispatcher.
    allowImplicitRedirect: true,
  });
  return guarded as typeof globalThis.fetch;
}
