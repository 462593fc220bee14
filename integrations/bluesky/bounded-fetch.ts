// Every HTTP call to the PDS ends within a deadline. A hung PDS never times out on its own (fetch
// waits for ever), and some @atproto/api calls take no signal (login, the handle look-ups of
// detectFacets), so the bound sits on the fetch the session uses rather than on each call.
export function boundedFetch(timeoutMs: number, base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) => {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = own === undefined || own === null ? deadline : AbortSignal.any([own, deadline]);
    return base(input, { ...init, signal });
  };
}
