// createSafeFetch, loaded on its first call: the SSRF-safe fetch and the undici dispatchers under
// it are a large part of a bundle, and most processes that hold one (the http function: only
// the OAuth server's client metadata documents use it) never fetch at all.
import type { SafeFetchOptions } from './safe-fetch.ts';

export function createLazySafeFetch(options: SafeFetchOptions): typeof globalThis.fetch {
  let loaded: Promise<typeof globalThis.fetch> | undefined;
  const load = (): Promise<typeof globalThis.fetch> =>
    (loaded ??= import('./safe-fetch.ts').then(
      (module) => module.createSafeFetch(options),
      (error: unknown) => {
        // Not remembered: the next call tries the import again.
        loaded = undefined;
        throw error;
      },
    ));
  return async (input, init) => (await load())(input, init);
}
