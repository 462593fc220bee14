// Sign in with Bluesky: which atproto OAuth client lorebook is (docs/design.md#surfaces). One switch:
//   loopback   (default) a development client: no metadata to host, redirect to 127.0.0.1; the
//              person's PDS accepts it only for http://127.0.0.1 base URLs.
//   production the client is `<base>/oauth/client-metadata.json`, authenticating to PDSs with
//              `private_key_jwt` signed by LOREBOOK_OAUTH_PRIVATE_KEY (its public half is served
//              at `<base>/oauth/jwks.json`). Needs an https base URL.
// Read from env here (not in src/config.ts) so the sign-in settings stay one block.

export type BlueskyOAuthClientMode = 'loopback' | 'production';

export interface SignInConfig {
  mode: BlueskyOAuthClientMode;
  /** production: the private signing key as a JWK (JSON text) with a `kid`. */
  privateKeyJwk?: string;
  /** Where handles are resolved; unset = DNS and https well-known (the library's default). Tests: the PDS URL. */
  handleResolver?: string;
  /** The did:plc directory; unset = https://plc.directory. Tests: the in-memory PLC. */
  plcDirectoryUrl?: string;
  /**
   * Development and tests only (a PDS and PLC on 127.0.0.1): let the sign-in's fetches reach
   * loopback and private addresses. Absent = every handle, DID and metadata fetch goes to
   * public addresses only (integrations/safe-fetch).
   */
  allowPrivateFetch?: true;
}

export const SIGN_IN_ENV = {
  mode: 'LOREBOOK_BLUESKY_OAUTH_CLIENT',
  privateKey: 'LOREBOOK_OAUTH_PRIVATE_KEY',
  handleResolver: 'LOREBOOK_BLUESKY_HANDLE_RESOLVER',
  plcDirectoryUrl: 'LOREBOOK_PLC_DIRECTORY_URL',
  allowPrivateFetch: 'LOREBOOK_ALLOW_PRIVATE_FETCH',
} as const;

/** `1`/`true` turns it on; unset, empty, `0`/`false` leave it off; anything else is a typo worth stopping for. */
export function readAllowPrivateFetch(env: NodeJS.ProcessEnv): boolean {
  const raw = env[SIGN_IN_ENV.allowPrivateFetch];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new Error(`${SIGN_IN_ENV.allowPrivateFetch} must be 1 (development against a local PDS) or unset, got "${raw}"`);
}

export function optionalUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/**
 * The sign-in settings, or undefined (sign-in off) when the switch is unset and the base URL is
 * not a 127.0.0.1 one, where the default loopback client cannot work.
 */
export function readSignInConfig(env: NodeJS.ProcessEnv, baseUrl: string): SignInConfig | undefined {
  const explicit = env[SIGN_IN_ENV.mode] || undefined;
  if (explicit === undefined && new URL(baseUrl).hostname !== '127.0.0.1') return undefined;
  const mode = explicit ?? 'loopback';
  if (mode !== 'loopback' && mode !== 'production') {
    throw new Error(`${SIGN_IN_ENV.mode} must be "loopback" (development) or "production", got "${mode}"`);
  }
  const handleResolver = optionalUrl(env, SIGN_IN_ENV.handleResolver);
  const plcDirectoryUrl = optionalUrl(env, SIGN_IN_ENV.plcDirectoryUrl);
  const resolution = {
    ...(handleResolver === undefined ? {} : { handleResolver }),
    ...(plcDirectoryUrl === undefined ? {} : { plcDirectoryUrl }),
    ...(readAllowPrivateFetch(env) ? { allowPrivateFetch: true as const } : {}),
  };
  if (mode === 'loopback') {
    if (new URL(baseUrl).hostname !== '127.0.0.1') {
      throw new Error(
        `${SIGN_IN_ENV.mode}=loopback (the default) only works when LOREBOOK_BASE_URL is http://127.0.0.1:<port>, got "${baseUrl}". For a public server set ${SIGN_IN_ENV.mode}=production and ${SIGN_IN_ENV.privateKey}.`,
      );
    }
    return { mode, ...resolution };
  }
  if (new URL(baseUrl).protocol !== 'https:') {
    throw new Error(
      `${SIGN_IN_ENV.mode}=production needs an https LOREBOOK_BASE_URL (PDSs fetch the client metadata from it), got "${baseUrl}"`,
    );
  }
  const privateKeyJwk = env[SIGN_IN_ENV.privateKey];
  if (privateKeyJwk === undefined || privateKeyJwk === '') {
    throw new Error(
      `${SIGN_IN_ENV.mode}=production needs ${SIGN_IN_ENV.privateKey}: a private ES256 key as a JWK with a "kid" (JSON text)`,
    );
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(privateKeyJwk);
  } catch {
    throw new Error(`${SIGN_IN_ENV.privateKey} must be a JWK as JSON text, e.g. {"kty":"EC","crv":"P-256","kid":"k1","x":…,"y":…,"d":…}`);
  }
  const fields = jwk as Record<string, unknown>;
  if (typeof fields !== 'object' || fields === null || typeof fields.d !== 'string' || typeof fields.kid !== 'string') {
    throw new Error(`${SIGN_IN_ENV.privateKey} must be a private JWK (with "d") and a "kid"`);
  }
  return { mode, privateKeyJwk, ...resolution };
}
