// The atproto OAuth client lorebook signs people in with (@atproto/oauth-client-node), over the
// table-backed state and session stores. Scope `atproto` only: lorebook needs the person's DID
// (and their handle, resolved from it), never access to their repository.
import {
  buildAtprotoLoopbackClientMetadata,
  JoseKey,
  NodeOAuthClient,
  type OAuthClientMetadataInput,
  requestLocalLock,
} from '@atproto/oauth-client-node';
import { createSafeFetch } from '../../../integrations/safe-fetch/index.ts';
import type { SignInConfig } from '../../auth/sign-in-config.ts';
import type { AppContext } from '../context/app-context.ts';
import { createSessionStore, createStateStore } from './bluesky-oauth-stores.ts';
import { CALLBACK_PATH, CLIENT_METADATA_PATH, JWKS_PATH } from './sign-in-paths.ts';

const SCOPE = 'atproto';

/**
 * A cache that keeps nothing. The client caches DID documents for an hour and handles for ten
 * minutes by default; a person who has just changed their handle could then not sign in with it
 * (the stale document fails the handle <-> DID check) and would be recorded under the old one.
 * Sign-ins are rare, so each one resolves afresh (a few small requests).
 */
const noCache = { get: () => undefined, set: () => undefined, del: () => undefined };

export function clientMetadata(baseUrl: string, config: SignInConfig): OAuthClientMetadataInput {
  if (config.mode === 'loopback') {
    return buildAtprotoLoopbackClientMetadata({ scope: SCOPE, redirect_uris: [`${baseUrl}${CALLBACK_PATH}`] });
  }
  return {
    client_id: `${baseUrl}${CLIENT_METADATA_PATH}`,
    client_name: 'lorebook',
    client_uri: baseUrl,
    redirect_uris: [`${baseUrl}${CALLBACK_PATH}`],
    scope: SCOPE,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    application_type: 'web',
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    dpop_bound_access_tokens: true,
    jwks_uri: `${baseUrl}${JWKS_PATH}`,
  };
}

export async function createBlueskyOAuthClient(ctx: AppContext, baseUrl: string, config: SignInConfig): Promise<NodeOAuthClient> {
  const keyset = config.privateKeyJwk === undefined ? undefined : [await JoseKey.fromImportable(config.privateKeyJwk)];
  return new NodeOAuthClient({
    clientMetadata: clientMetadata(baseUrl, config),
    ...(keyset === undefined ? {} : { keyset }),
    stateStore: createStateStore(ctx),
    sessionStore: createSessionStore(ctx),
    // @NOTE the lock only serialises token refreshes within one process; lorebook never
    // refreshes a PDS session (it revokes it at the end of the callback), so none is shared.
    requestLock: requestLocalLock,
    // Handles, DIDs, PDSs and their metadata are named by whoever signs in: every fetch goes
    // to public addresses only (SSRF), unless the operator opted in for a local PDS.
    fetch: createSafeFetch({ allowPrivateAddresses: config.allowPrivateFetch === true }),
    // http PDSs and did:web documents only in development (a local PDS); production is https.
    allowHttp: config.mode === 'loopback',
    didCache: noCache,
    handleCache: noCache,
    ...(config.handleResolver === undefined ? {} : { handleResolver: config.handleResolver }),
    ...(config.plcDirectoryUrl === undefined ? {} : { plcDirectoryUrl: config.plcDirectoryUrl }),
  });
}
