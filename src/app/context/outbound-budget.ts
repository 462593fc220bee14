// Fetches lorebook makes because a stranger asked (design.md#admission): a DID document to check a
// service-auth JWT, a client ID metadata document named by an OAuth client_id. Each is counted
// against the caller's address before it is made, in its own per-minute window (the rate-limit
// item of design.md#surfaces under a subject of its own), so a flood of fresh DIDs or client URLs costs the
// flooder its own budget of look-ups and nobody else's, and no more fetches than that budget.
import type { OutboundSettings } from '../../../integrations/safe-fetch/outbound-settings.ts';
import { LorebookError } from '../../domain/errors.ts';
import type { AppContext } from './app-context.ts';
import { consumeRateLimit, RATE_WINDOW_MS } from './rate-limit.ts';

/** Spends one fetch of the caller's budget, or throws rate_limited before anything is fetched. */
export type SpendFetch = () => Promise<void>;

export const outboundRateSubject = (address: string): string => `fetch:ip:${address}`;

/** The caller's budget of fetches, bound to its address. */
export function fetchBudgetOf(ctx: AppContext, settings: OutboundSettings, address: string | undefined): SpendFetch {
  return async () => {
    const decision = await consumeRateLimit(ctx, outboundRateSubject(address ?? 'unknown'), ctx.store.now(), settings.fetchesPerMinute);
    if (decision.allowed) return;
    throw new LorebookError(
      'rate_limited',
      `This call needs lorebook to fetch a document on its behalf (a DID document or a client metadata document), and this address has used its ${decision.limit} such fetches this minute. Nothing was fetched. Wait retry_after_ms (${decision.retryAfterMs} ms), then send the same call again.`,
      {
        retryAfterMs: decision.retryAfterMs,
        details: { reason: 'fetch_budget', limit: decision.limit, window_seconds: RATE_WINDOW_MS / 1000 },
      },
    );
  };
}
