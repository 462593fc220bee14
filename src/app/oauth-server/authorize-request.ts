// The authorization request (RFC 6749 §4.1.1 + RFC 7636 + RFC 8707), judged before anyone signs
// in or consents. A bad client_id or redirect_uri is shown to the person (redirecting to an
// unverified URI would make lorebook an open redirector, RFC 6749 §4.1.2.1); every other fault
// is addressed to the client's registered redirect URI as `error=…` — which the route offers as
// a link, never as an automatic redirect (RFC 9700 §4.11.2: anyone can register any https URI).

import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { isCodeChallenge } from '../../auth/oauth/pkce.ts';
import { isRegisteredRedirect } from '../../auth/oauth/redirect-uri.ts';
import { parseScope, SCOPES, scopeString } from '../../auth/oauth/scopes.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import type { KnownClient } from '../../store/identity/oauth-client-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { knownClient } from './known-client.ts';

export interface AuthorizeRequest {
  client: KnownClient;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  /** The granted scopes, space-separated: what the request asked for, or every scope when it named none. */
  scope: string;
  state?: string;
}

export type AuthorizeVerdict =
  | { ok: true; request: AuthorizeRequest }
  /** Shown as a page: there is no verified place to send the person back to. */
  | { ok: false; error: OAuthError; redirect?: undefined }
  /** For the client as `error=…` on its registered redirect URI (the person chooses to go there). */
  | { ok: false; error: OAuthError; redirect: { uri: string; clientName: string; state?: string } };

export async function judgeAuthorizeRequest(ctx: AppContext, oauth: OAuthServer, params: URLSearchParams): Promise<AuthorizeVerdict> {
  const single = (name: string): string | undefined => (params.getAll(name).length === 1 ? (params.get(name) ?? undefined) : undefined);
  const clientId = single('client_id');
  let client: KnownClient | undefined;
  try {
    client = clientId === undefined ? undefined : await knownClient(ctx, oauth, clientId);
  } catch (error) {
    // A metadata document that cannot be fetched or used: its redirect URIs are not trusted either.
    if (error instanceof OAuthError) return { ok: false, error };
    throw error;
  }
  if (client === undefined) {
    return {
      ok: false,
      error: new OAuthError(
        'invalid_client',
        'This app is not registered with lorebook (an unknown or expired client_id). Go back to the app and connect again: it registers itself anew.',
      ),
    };
  }
  const redirectUri = single('redirect_uri');
  if (redirectUri === undefined || !isRegisteredRedirect(client.redirect_uris, redirectUri)) {
    return {
      ok: false,
      error: new OAuthError(
        'invalid_redirect_uri',
        `The redirect_uri is not one "${client.client_name}" registered (it must match exactly). lorebook does not send you to an unverified address.`,
      ),
    };
  }
  const state = single('state');
  // RFC 6749 Appendix A.5: state is printable ASCII; it is stored with the consent, so no control may ride along.
  if (state !== undefined && !/^[\x20-\x7e]*$/.test(state))
    return {
      ok: false,
      error: new OAuthError(
        'invalid_request',
        'state must be printable ASCII (RFC 6749 Appendix A.5): no control characters or line breaks.',
      ),
    };
  const back = (error: OAuthError): AuthorizeVerdict => ({
    ok: false,
    error,
    redirect: { uri: redirectUri, clientName: client.client_name, ...(state === undefined ? {} : { state }) },
  });
  if (single('response_type') !== 'code') return back(new OAuthError('unsupported_response_type', 'response_type must be "code".'));
  const method = single('code_challenge_method');
  const challenge = single('code_challenge');
  if (challenge === undefined)
    return back(new OAuthError('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.'));
  if (method !== 'S256')
    return back(
      new OAuthError(
        'invalid_request',
        `code_challenge_method must be S256${method === undefined ? '' : `, not "${method}"`} (plain PKCE is refused).`,
      ),
    );
  if (!isCodeChallenge(challenge))
    return back(new OAuthError('invalid_request', 'code_challenge must be the base64url sha256 of the code_verifier (43 characters).'));
  const resources = params.getAll('resource');
  if (resources.length > 1 || (resources.length === 1 && resources[0] !== oauth.resource)) {
    return back(new OAuthError('invalid_target', `lorebook issues tokens for one resource only: ${oauth.resource}.`));
  }
  const scopes = params.getAll('scope');
  const asked = scopes.length === 1 ? parseScope(scopes[0] as string) : scopes.length === 0 ? [...SCOPES] : undefined;
  if (asked === undefined || asked.length === 0)
    return back(
      new OAuthError(
        'invalid_scope',
        `scope must be one space-separated list of lorebook's scopes (${SCOPES.join(', ')}), or left out for all of them.`,
      ),
    );
  return {
    ok: true,
    request: {
      client,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      resource: oauth.resource,
      scope: scopeString(asked),
      ...(state === undefined ? {} : { state }),
    },
  };
}

/** The client's redirect URI with the answer's parameters (RFC 6749 §4.1.2, RFC 9207 `iss`). */
export function redirectWith(oauth: OAuthServer, uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', oauth.issuer);
  return url.toString();
}
