// The account page's connected apps: the person's live grants, newest first; a grant whose code
// was never exchanged expires with the code and is no longer listed. Written for the survivors
// of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { recordBlueskySignIn } from '../../../src/app/bluesky-sign-in.ts';
import { accountAccess } from '../../../src/app/oauth/account-access.ts';
import { judgeAuthorizeRequest } from '../../../src/app/oauth/authorize-request.ts';
import { answerConsent, showConsent, type SignedInPerson } from '../../../src/app/oauth/consent.ts';
import { registerClient } from '../../../src/app/oauth/register-client.ts';
import { tokenRequest } from '../../../src/app/oauth/token-request.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { pkcePair } from '../../helpers/oauth/oauth-flow.ts';

const fixture = useAppFixture('integration-oauth-connected-apps');
const oauth = oauthServerAt('http://127.0.0.1:9');
const person: SignedInPerson = { account: 'did:plc:oauthconnected0000000000', handle: 'connected.test', sessionCookie: 'lbs_session-of-the-connected' };

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

/** Approves `name`; with `exchange`, its code is exchanged (which extends the grant to the refresh token's life). */
async function approve(name: string, exchange: boolean): Promise<void> {
  const redirectUri = `http://127.0.0.1:47600/${name}`;
  const { client_id: clientId } = await registerClient(fixture.ctx(), oauth, { client_name: name, redirect_uris: [redirectUri] });
  const pkce = pkcePair();
  const verdict = await judgeAuthorizeRequest(
    fixture.ctx(),
    oauth,
    new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
  );
  if (!verdict.ok) throw verdict.error;
  const { consentSecret } = await showConsent(fixture.ctx(), oauth, person, verdict.request);
  const code = new URL((await answerConsent(fixture.ctx(), oauth, person, consentSecret, true)).redirectTo).searchParams.get('code') ?? '';
  if (exchange) await tokenRequest(fixture.ctx(), oauth, new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: pkce.verifier, redirect_uri: redirectUri }));
}

describe('connected apps on the account page', () => {
  it('lists the live grants newest first; a grant whose code was never exchanged is gone once the code expires', async () => {
    await approve('oldest-app', true);
    fixture.advance(1_000);
    await approve('never-exchanged', false);
    fixture.advance(1_000);
    await approve('newest-app', true);
    expect((await accountAccess(fixture.ctx(), person.account)).grants.map((grant) => grant.client_name)).toEqual(['newest-app', 'never-exchanged', 'oldest-app']);
    fixture.advance((oauth.settings.authorizationCodeSeconds + 1) * 1000);
    expect((await accountAccess(fixture.ctx(), person.account)).grants.map((grant) => grant.client_name)).toEqual(['newest-app', 'oldest-app']);
  });
});
