// Fetching URLs that strangers choose, without SSRF and within bounds.
export { createSafeFetch, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type SafeFetchOptions } from './safe-fetch.ts';
