// The AppContext, built once per process (or per Lambda cold start) from the config, and the
// Bluesky announcer when announcing is configured (it is injected, never imported by use cases).
import { createBlueskyClient } from '../integrations/bluesky/index.ts';
import type { AppContext } from './app/app-context.ts';
import { VerifiedTokens } from './app/oauth-server/verified-tokens.ts';
import type { Config } from './config.ts';
import { announceSoonWith, type AnnounceSoon } from './outbox/announce-soon.ts';
import { DEFAULT_ANNOUNCE_SETTINGS } from './outbox/announce-settings.ts';
import type { Announcer } from './outbox/announcer.ts';
import { createStoreClient } from './store/client.ts';

export function buildContext(
  config: Config,
  endpoint = config.ddbEndpoint,
  announcer?: Announcer,
): AppContext & { announcing?: AnnounceSoon } {
  const client = createStoreClient({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(config.region === undefined ? {} : { region: config.region }),
  });
  const ctx: AppContext & { announcing?: AnnounceSoon } = {
    store: { client, tableName: config.tableName, now: Date.now },
    config: config.app,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    verifiedTokens: new VerifiedTokens(),
  };
  if (announcer !== undefined) {
    const announcing = announceSoonWith(ctx, announcer);
    ctx.announcing = announcing;
    ctx.announceSoon = announcing.soon;
  }
  return ctx;
}

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
  return {
    port: createBlueskyClient({
      service: bluesky.service,
      identifier: bluesky.identifier,
      appPassword: bluesky.appPassword,
      requestTimeoutMs: bluesky.requestTimeoutMs,
    }),
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
