// The settings every fetcher for strangers shares (design.md#admission): a DID document for a service-auth
// JWT, a client ID metadata document for an OAuth client_id. Read from the settings table
// (LOREBOOK_OUTBOUND_*); one set, with one process-wide FetchSlots, per app.
import { createFetchSlots, type FetchSlots } from './fetch-slots.ts';

export interface OutboundSettings {
  /** Fetches per minute made on behalf of one caller address. */
  fetchesPerMinute: number;
  /** A look-up that failed (no document, not usable, unreachable) is answered from memory this long. */
  failureCacheMs: number;
  /** A fetched document is kept at least this long, whatever its Cache-Control says (no-store, no-cache, max-age=0). */
  cacheFloorMs: number;
  /** Outbound fetches in flight at once in one process, whoever asked. */
  concurrency: number;
}

export const DEFAULT_OUTBOUND_SETTINGS: OutboundSettings = {
  fetchesPerMinute: 30,
  failureCacheMs: 60_000,
  cacheFloorMs: 60_000,
  concurrency: 8,
};

/** The settings with the process's slots. */
export interface Outbound {
  settings: OutboundSettings;
  slots: FetchSlots;
}

export function outboundWith(settings: OutboundSettings = DEFAULT_OUTBOUND_SETTINGS): Outbound {
  return { settings, slots: createFetchSlots(settings.concurrency) };
}
