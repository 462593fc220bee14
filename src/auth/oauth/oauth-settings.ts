// The authorization server's lifetimes, from env, read once (src/config.ts calls this). Every
// record the server writes has a TTL from here; none lives forever.
import { createLazySafeFetch } from '../../../integrations/safe-fetch/lazy-safe-fetch.ts';
import { type Outbound, outboundWith } from '../../../integrations/safe-fetch/outbound-settings.ts';
import { readAllowPrivateFetch } from '../sign-in-config.ts';
import { type CachedFailure, ClientDocumentCache } from './client-document-cache.ts';
import { CLIENT_DOCUMENT_MAX_BYTES } from './client-id-url.ts';

export interface OAuthServerSettings {
  /** Access tokens are short-lived: a leaked one is useless after this. */
  accessTokenSeconds: number;
  /** A grant family (and each refresh token) lives this long after its last refresh. */
  refreshTokenSeconds: number;
  /** An authorization code must be exchanged within this (RFC 6749 §4.1.2: at most 10 minutes). */
  authorizationCodeSeconds: number;
  /** A consent page must be answered within this. */
  consentSeconds: number;
  /** A client that completed an authorization is kept this long after its last code exchange or refresh. */
  clientSeconds: number;
  /**
   * A client registered anonymously that never completed an authorization is forgotten this long
   * after registering: registrations cannot fill the table for months.
   */
  pendingClientSeconds: number;
  /** New registrations per client address per clock hour, across all instances: one address cannot spend anyone else's. */
  registrationsPerHour: number;
  /** A client ID metadata document must arrive within this (connect, redirects refused, body), in milliseconds. */
  clientMetadataTimeoutMs: number;
  /**
   * Development and tests only (LOREBOOK_ALLOW_PRIVATE_FETCH, the sign-in's switch): client ID
   * metadata documents may then be fetched from loopback and private addresses, over http too.
   */
  allowPrivateFetch: boolean;
}

type WholeNumberSetting = Exclude<keyof OAuthServerSettings, 'allowPrivateFetch'>;

export const DEFAULT_OAUTH_SERVER_SETTINGS: OAuthServerSettings = {
  accessTokenSeconds: 60 * 60,
  refreshTokenSeconds: 30 * 24 * 60 * 60,
  authorizationCodeSeconds: 5 * 60,
  consentSeconds: 10 * 60,
  clientSeconds: 180 * 24 * 60 * 60,
  pendingClientSeconds: 24 * 60 * 60,
  registrationsPerHour: 100,
  clientMetadataTimeoutMs: 5000,
  allowPrivateFetch: false,
};

const ENV: Record<WholeNumberSetting, string> = {
  accessTokenSeconds: 'LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS',
  refreshTokenSeconds: 'LOREBOOK_OAUTH_REFRESH_TOKEN_SECONDS',
  authorizationCodeSeconds: 'LOREBOOK_OAUTH_CODE_SECONDS',
  consentSeconds: 'LOREBOOK_OAUTH_CONSENT_SECONDS',
  clientSeconds: 'LOREBOOK_OAUTH_CLIENT_SECONDS',
  pendingClientSeconds: 'LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS',
  registrationsPerHour: 'LOREBOOK_OAUTH_REGISTRATIONS_PER_HOUR',
  clientMetadataTimeoutMs: 'LOREBOOK_OAUTH_CLIENT_METADATA_TIMEOUT_MS',
};

export function readOAuthServerSettings(env: NodeJS.ProcessEnv): OAuthServerSettings {
  const settings = { ...DEFAULT_OAUTH_SERVER_SETTINGS, allowPrivateFetch: readAllowPrivateFetch(env) };
  for (const [field, name] of Object.entries(ENV) as [WholeNumberSetting, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
    settings[field] = value;
  }
  if (settings.authorizationCodeSeconds > 600) throw new Error(`${ENV.authorizationCodeSeconds} is at most 600 (RFC 6749 §4.1.2)`);
  return settings;
}

/** What every OAuth use case needs to know about this server. */
export interface OAuthServer {
  /** The issuer: the public base URL, no trailing slash. */
  issuer: string;
  /** The one resource tokens are minted for (RFC 8707): the MCP endpoint. */
  resource: string;
  settings: OAuthServerSettings;
  /**
   * Client ID metadata documents: the SSRF-safe fetch they come through, the documents kept by
   * their cache headers (at least the outbound cache floor), failed look-ups remembered a while,
   * the process's outbound slots, and `spend`, the requesting address's fetch budget, which the
   * route sets per request (design.md#admission); none set: nothing is counted (use cases called directly).
   */
  clientDocuments: {
    fetch: typeof globalThis.fetch;
    cache: ClientDocumentCache;
    failures: ClientDocumentCache<CachedFailure>;
    outbound: Outbound;
    spend?: () => Promise<void>;
  };
  /** One line per grant decided or revoked, and loudly on a reused code or refresh token. */
  log: (line: string) => void;
}

export function oauthServerAt(
  baseUrl: string,
  settings: OAuthServerSettings = DEFAULT_OAUTH_SERVER_SETTINGS,
  log: (line: string) => void = () => {},
  outbound: Outbound = outboundWith(),
): OAuthServer {
  const issuer = baseUrl.replace(/\/+$/, '');
  const clientDocuments = {
    fetch: createLazySafeFetch({
      allowPrivateAddresses: settings.allowPrivateFetch,
      maxResponseBytes: CLIENT_DOCUMENT_MAX_BYTES,
      timeoutMs: settings.clientMetadataTimeoutMs,
    }),
    cache: new ClientDocumentCache(),
    failures: new ClientDocumentCache<CachedFailure>(),
    outbound,
  };
  return { issuer, resource: `${issuer}/mcp`, settings, clientDocuments, log };
}
