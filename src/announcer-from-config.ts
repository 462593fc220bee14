// The Bluesky announcer from the config, when announcing is configured (it is injected, never
// imported by use cases). Apart from context.ts so that only the processes that announce (npm
// start, the stream and sweeper functions, npm run sweep) load the Bluesky client.
import { createBlueskyClient } from '../integrations/bluesky/index.ts';
import type { Config } from './config.ts';
import type { Announcer } from './outbox/announce/announcer.ts';
import { DEFAULT_ANNOUNCE_SETTINGS } from './outbox/announce/settings.ts';

/**
 * A claim turns stale after this many request timeouts (5 min at the default 10 s): far longer
 * than one attempt's calls (sign-in, refresh, look-up, upload, mention look-ups, create), each
 * bounded by the timeout, so only a dead worker's claim is ever taken over.
 */
const STALE_CLAIM_TIMEOUTS = 30;

/** The announcer, or undefined when BLUESKY_* is unset; says which, once. */
export function buildAnnouncer(config: Config, log: (line: string) => void): Announcer | undefined {
  const bluesky = config.bluesky;
  if (bluesky === undefined) {
    log(
      'lorebook: Bluesky announcing is off (set BLUESKY_SERVICE, BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD to turn it on); stories wait on the announce queue',
    );
    return undefined;
  }
  log(`lorebook: Bluesky announcing is on: posting as ${bluesky.identifier} on ${bluesky.service}`);
  if (/^(127\.|localhost$|\[::1\]$)/.test(new URL(config.http.baseUrl).hostname)) {
    log(
      `lorebook: WARNING link cards will point at ${config.http.baseUrl}, this machine; set LOREBOOK_BASE_URL to the public URL before announcing for real`,
    );
  }
  const client = createBlueskyClient({
    service: bluesky.service,
    identifier: bluesky.identifier,
    appPassword: bluesky.appPassword,
    requestTimeoutMs: bluesky.requestTimeoutMs,
  });
  return {
    port: client,
    // Every listed story also gets its standard.site document, in the site's publication (design.md#standard-site).
    documents: { port: client.documents, publication: { url: config.http.baseUrl, ...bluesky.publication } },
    settings: {
      ...DEFAULT_ANNOUNCE_SETTINGS,
      baseUrl: config.http.baseUrl,
      maxAttempts: bluesky.maxAttempts,
      backoffBaseMs: bluesky.backoffBaseMs,
      staleClaimMs: Math.max(DEFAULT_ANNOUNCE_SETTINGS.staleClaimMs, STALE_CLAIM_TIMEOUTS * bluesky.requestTimeoutMs),
    },
    log,
  };
}
