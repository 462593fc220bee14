// The http app wired from the configuration: one place for what `npm start` (src/cli/start.ts)
// and the Lambda http function (handlers/http.ts) both serve — the API, MCP, pages, the feed
// generator, lorebook's OAuth server with its lifetimes and log, and Sign in with Bluesky —
// so a feature wired into one cannot silently be missing from the other.
import type { Hono } from 'hono';
import type { AppContext } from '../app/context/app-context.ts';
import type { IndexAnswers } from '../app/search/index-answers.ts';
import { lazyStorySearch } from '../app/search/lazy-story-search.ts';
import type { SignInConfig } from '../auth/sign-in-config.ts';
import type { Config } from '../config.ts';
import { feedUri } from '../domain/feed-generator.ts';
import type { ClientAddress } from './admission.ts';
import { createHttpApp } from './app.ts';
import type { HttpEnv } from './http-env.ts';

/** Why sign-in is off, when the caller has no better reason to give. */
export const SIGN_IN_OFF_HINT = 'set LOREBOOK_BLUESKY_OAUTH_CLIENT=production and LOREBOOK_OAUTH_PRIVATE_KEY for a public base URL';

export interface AppFromConfigDeps {
  ctx: AppContext;
  config: Config;
  /** Sign in with Bluesky (readSignInConfig); undefined = off. */
  signIn: SignInConfig | undefined;
  /** What the operator can do to turn sign-in on, said in the "off" line (default SIGN_IN_OFF_HINT). */
  signInOffHint?: string;
  /** Startup lines, sign-in lines and the OAuth server's lines. */
  log: (line: string) => void;
  /** Extra Host values to accept (the Lambda Function URL's own host behind a custom domain). */
  allowedHosts?: string[];
  /** The caller's address for the anonymous rate limit (default: the socket's). */
  clientAddress?: ClientAddress;
  /**
   * Where the search index answers, made at the first search (default: an index this thread
   * holds; `npm start` passes a thread of its own, src/cli/search-index-in-thread.ts).
   */
  searchIndex?: () => IndexAnswers;
}

export function httpAppFromConfig(deps: AppFromConfigDeps): Hono<HttpEnv> {
  const { ctx, config, signIn, log } = deps;
  const { baseUrl, allowedOrigins } = config.http;
  log(
    signIn === undefined
      ? `lorebook: Sign in with Bluesky is off (${deps.signInOffHint ?? SIGN_IN_OFF_HINT})`
      : `lorebook: Sign in with Bluesky is on (${signIn.mode} client): ${baseUrl}/auth/login`,
  );
  const { publisherDid, rkey } = config.feedGenerator;
  log(
    publisherDid === undefined
      ? 'lorebook: the Bluesky feed generator lists no feed yet (npm run bsky:publish-feed, then set BLUESKY_FEED_PUBLISHER_DID)'
      : `lorebook: the Bluesky feed generator serves ${feedUri(publisherDid, rkey)}`,
  );
  return createHttpApp({
    ctx,
    search: lazyStorySearch(async () =>
      (await import('../app/search/story-search.ts')).createStorySearch(ctx, {
        refreshMs: config.http.searchRefreshMs,
        log,
        ...(deps.searchIndex === undefined ? {} : { answers: deps.searchIndex() }),
      }),
    ),
    baseUrl,
    allowedOrigins,
    ...(deps.allowedHosts === undefined ? {} : { allowedHosts: deps.allowedHosts }),
    ...(deps.clientAddress === undefined ? {} : { clientAddress: deps.clientAddress }),
    feedGenerator: config.feedGenerator,
    outbound: config.outbound,
    ...(signIn === undefined ? {} : { signIn: { config: signIn, log } }),
    oauthSettings: config.oauthServer,
    oauthLog: log,
    refusalHold: config.http.refusalHold,
  });
}
