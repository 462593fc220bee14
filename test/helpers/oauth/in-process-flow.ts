// The authorization-code steps run in process, through the use cases themselves (no HTTP): a
// client registers, its authorize request is judged, the consent is shown to a signed-in person,
// approved, and the code exchanged. The OAuth integration suites start each test from the step it
// is about; the HTTP flow is test/helpers/oauth/oauth-flow.ts.
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { judgeAuthorizeRequest } from '../../../src/app/oauth-server/authorize-request.ts';
import { answerConsent, type SignedInPerson, showConsent } from '../../../src/app/oauth-server/consent.ts';
import type { TokenAnswer } from '../../../src/app/oauth-server/mint-tokens.ts';
import { registerClient } from '../../../src/app/oauth-server/register-client.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import type { OAuthServer } from '../../../src/auth/oauth/oauth-settings.ts';
import type { StoredState } from '../app-fixture.ts';
import { type Pkce, pkcePair } from './oauth-flow.ts';

export interface ClientRequest {
  /** The client's registered name. */
  name: string;
  redirectUri: string;
  /** Registered grant types; default: the registration's default. */
  grantTypes?: string[];
}

export interface PendingConsent {
  clientId: string;
  redirectUri: string;
  pkce: Pkce;
  /** The consent form's secret, as the consent page hands it to the browser. */
  secret: string;
}

export interface ApprovedCode extends PendingConsent {
  code: string;
}

export interface ConnectedClient {
  clientId: string;
  grantId: string;
  tokens: TokenAnswer;
}

/** A registered client whose authorize request was judged valid and whose consent is shown, undecided. */
export async function pendingConsent(
  ctx: AppContext,
  oauth: OAuthServer,
  person: SignedInPerson,
  client: ClientRequest,
): Promise<PendingConsent> {
  const { client_id: clientId } = await registerClient(
    ctx,
    oauth,
    {
      client_name: client.name,
      redirect_uris: [client.redirectUri],
      ...(client.grantTypes === undefined ? {} : { grant_types: client.grantTypes }),
    },
    '127.0.0.1',
  );
  const pkce = pkcePair();
  const verdict = await judgeAuthorizeRequest(
    ctx,
    oauth,
    new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: client.redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  );
  if (!verdict.ok) throw verdict.error;
  const { consentSecret } = await showConsent(ctx, oauth, person, verdict.request);
  return { clientId, redirectUri: client.redirectUri, pkce, secret: consentSecret };
}

/** As pendingConsent, then approved: the code the client's redirect URI receives. */
export async function approvedCode(
  ctx: AppContext,
  oauth: OAuthServer,
  person: SignedInPerson,
  client: ClientRequest,
): Promise<ApprovedCode> {
  const pending = await pendingConsent(ctx, oauth, person, client);
  const answer = await answerConsent(ctx, oauth, person, pending.secret, true);
  return { ...pending, code: new URL(answer.redirectTo).searchParams.get('code') ?? '' };
}

/** The token request exchanging an approved code, as `clientId` (default: the client it was issued to). */
export const exchangeForm = (approved: ApprovedCode, clientId: string = approved.clientId): URLSearchParams =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: clientId,
    code: approved.code,
    code_verifier: approved.pkce.verifier,
    redirect_uri: approved.redirectUri,
  });

/** As approvedCode, then the code exchanged: the first token set and the grant it belongs to (found in `state`). */
export async function connectedClient(
  ctx: AppContext,
  oauth: OAuthServer,
  person: SignedInPerson,
  client: ClientRequest,
  state: () => Promise<StoredState>,
): Promise<ConnectedClient> {
  const approved = await approvedCode(ctx, oauth, person, client);
  const tokens = await tokenRequest(ctx, oauth, exchangeForm(approved));
  const grant = (await state()).find(
    (item) => item.client_id === approved.clientId && String(item.PK).startsWith('GRANT#') && item.SK === 'META',
  );
  return { clientId: approved.clientId, grantId: String(grant?.grant_id), tokens };
}
