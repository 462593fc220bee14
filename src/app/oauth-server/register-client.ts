// Dynamic client registration (RFC 7591) for public clients (token_endpoint_auth_method "none",
// PKCE instead of a secret). The client_id is derived from the registered metadata, so a second
// delivery of one registration answers the same client, never a second row. A new client is
// counted against its address's registration budget in the transaction that creates it, and
// lives a short while unless it completes an authorization (registration-budget.ts).
import { z } from 'zod';
import { clientIdFor } from '../../auth/oauth/oauth-secrets.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { redirectUriProblem } from '../../auth/oauth/redirect-uri.ts';
import { isLorebookError, LorebookError } from '../../domain/errors.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import { type OAuthClient, oauthClientKey, registerOAuthClient, toOAuthClient } from '../../store/identity/oauth-client-items.ts';
import { pick, readItem } from '../../store/read-items.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext } from '../context/app-context.ts';
import { type LoopPlan, writeLoop } from '../write/write-loop.ts';
import { CLIENT_METADATA_FIELDS, SUPPORTED_GRANT_TYPES } from './client-metadata-fields.ts';
import { isWindowFull, registrationBudgetSpent, registrationWindow } from './registration-budget.ts';

// Loose: RFC 7591 §2 says unknown metadata is ignored.
const registrationSchema = z.looseObject(CLIENT_METADATA_FIELDS);

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: ['code'];
  token_endpoint_auth_method: 'none';
}

/** `address`: the registering client's address, whose hourly budget a new client spends. */
export async function registerClient(ctx: AppContext, oauth: OAuthServer, body: unknown, address: string): Promise<RegisteredClient> {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
    throw new OAuthError(
      'invalid_client_metadata',
      `The registration is not valid (${fields}). Send a JSON object with redirect_uris (1 to 10 URIs) and optionally client_name.`,
    );
  }
  const input = parsed.data;
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new OAuthError('invalid_redirect_uri', `The redirect URI "${uri}" ${problem}.`);
  }
  if (input.token_endpoint_auth_method !== undefined && input.token_endpoint_auth_method !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method "${input.token_endpoint_auth_method}" is not supported: lorebook registers public clients ("none") that prove themselves with PKCE.`,
    );
  }
  const grantTypes = input.grant_types ?? [...SUPPORTED_GRANT_TYPES];
  const unknownGrant = grantTypes.find((grant) => !SUPPORTED_GRANT_TYPES.includes(grant));
  if (unknownGrant !== undefined)
    throw new OAuthError('invalid_client_metadata', `grant_types holds "${unknownGrant}"; supported: ${SUPPORTED_GRANT_TYPES.join(', ')}.`);
  if (!grantTypes.includes('authorization_code'))
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code.');
  const unknownResponse = (input.response_types ?? ['code']).find((type) => type !== 'code');
  if (unknownResponse !== undefined)
    throw new OAuthError('invalid_client_metadata', `response_types holds "${unknownResponse}"; only "code" is supported.`);

  const clientName = input.client_name ?? new URL(input.redirect_uris[0] as string).host;
  const clientId = clientIdFor({ redirect_uris: input.redirect_uris, client_name: clientName, grant_types: grantTypes });
  const key = oauthClientKey(clientId);
  return writeLoop<RegisteredClient>(ctx, {
    // Keyed by the metadata itself (the client_id is its hash): no op record needed.
    reads: [key, registrationWindow(oauth.settings, ctx.store.now(), address).key],
    plan(read, { now }): LoopPlan<RegisteredClient> {
      // The same registration again: the same client, nothing written, no budget spent.
      const existing = pick(read, key);
      if (existing !== undefined) return { outcome: answer(toOAuthClient(existing)), actions: [] };
      const window = registrationWindow(oauth.settings, now, address);
      if (isWindowFull(window, pick(read, window.key))) throw registrationBudgetSpent(window);
      const client: OAuthClient = {
        client_id: clientId,
        client_name: clientName,
        redirect_uris: input.redirect_uris,
        grant_types: grantTypes,
        client_id_issued_at: epochSeconds(now),
        // Short until the client completes an authorization (token-request.ts extends it).
        expires_at: epochSeconds(now) + oauth.settings.pendingClientSeconds,
      };
      return { outcome: answer(client), actions: [registerOAuthClient(client, now), window.count] };
    },
  }).catch((error: unknown) => Promise.reject(crowded(error)));
}

/** writeLoop gave up because other registrations kept taking the shared budget window at the same moment. */
function crowded(error: unknown): unknown {
  if (!isLorebookError(error) || error.code !== 'conflict') return error;
  return new LorebookError(
    'conflict',
    'Many apps registered from this address at the same moment. Nothing was registered twice: send the same registration again after retry_after_ms.',
    {
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      details: { reason: 'registrations_crowded' },
    },
  );
}

/** A live registered client, or undefined. */
export async function findClient(ctx: AppContext, clientId: string): Promise<OAuthClient | undefined> {
  if (!/^lbc_[0-9a-f]{32}$/.test(clientId)) return undefined;
  const item = await readItem(ctx.store, oauthClientKey(clientId));
  return item === undefined ? undefined : toOAuthClient(item);
}

function answer(client: OAuthClient): RegisteredClient {
  return {
    client_id: client.client_id,
    client_id_issued_at: client.client_id_issued_at,
    client_name: client.client_name,
    redirect_uris: client.redirect_uris,
    grant_types: client.grant_types,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
