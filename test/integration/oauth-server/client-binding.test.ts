// A code or refresh token belongs to the client it was issued to, and a client may use only the
// grants it registered: presented by anyone else — even with the right redirect URI and PKCE
// verifier, as a thief would — it is refused with a typed OAuth error and nothing is written.
// Written for the survivors of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInPerson } from '../../../src/app/oauth-server/consent.ts';
import { registerClient } from '../../../src/app/oauth-server/register-client.ts';
import { revokeByClient } from '../../../src/app/oauth-server/revoke-token.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { isOAuthError } from '../../../src/domain/oauth-error.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { approvedCode, exchangeForm } from '../../helpers/oauth/in-process-flow.ts';

const fixture = useAppFixture('integration-oauth-client-binding');
const oauth = oauthServerAt('http://127.0.0.1:9');
const person: SignedInPerson = {
  account: 'did:plc:oauthbinding00000000000',
  handle: 'binding.test',
  sessionCookie: 'lbs_session-of-the-binder',
};

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

/** A client registered with `grantTypes`, and the code its person approved. */
const approve = (name: string, redirectUri: string, grantTypes?: string[]) =>
  approvedCode(fixture.ctx(), oauth, person, { name, redirectUri, ...(grantTypes === undefined ? {} : { grantTypes }) });

/** The OAuth error code of a refused call (fails the test when the call succeeds). */
async function refusedWith(call: Promise<unknown>): Promise<{ error: string; message: string }> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isOAuthError(outcome)) throw new Error(`expected an OAuth refusal, got ${String(outcome)}`);
  return { error: outcome.error, message: outcome.message };
}

describe('a code or refresh token presented by another client', () => {
  it('a code presented by another client with the right redirect URI and verifier is invalid_grant, writes nothing, and still works for its own client', async () => {
    const approved = await approve('code-owner', 'http://127.0.0.1:47200/shared');
    // Another registration of the same redirect URI: a different client_id.
    const { client_id: thief } = await registerClient(
      fixture.ctx(),
      oauth,
      {
        client_name: 'code-thief',
        redirect_uris: [approved.redirectUri],
      },
      '127.0.0.1',
    );
    const before = await fixture.state();
    expect(await refusedWith(tokenRequest(fixture.ctx(), oauth, exchangeForm(approved, thief)))).toMatchObject({
      error: 'invalid_grant',
      message: expect.stringMatching(/another client/),
    });
    expect(await fixture.state()).toEqual(before);
    expect(await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved))).toMatchObject({
      access_token: expect.stringMatching(/^lbk_/),
    });
  });

  it('a refresh token presented by another client is invalid_grant, writes nothing, and still refreshes for its own client', async () => {
    const approved = await approve('refresh-owner', 'http://127.0.0.1:47200/refresh-owner');
    const tokens = await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved));
    const { client_id: thief } = await registerClient(
      fixture.ctx(),
      oauth,
      {
        client_name: 'refresh-thief',
        redirect_uris: ['http://127.0.0.1:47200/refresh-thief'],
      },
      '127.0.0.1',
    );
    const before = await fixture.state();
    const refreshBy = (clientId: string) =>
      tokenRequest(
        fixture.ctx(),
        oauth,
        new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }),
      );
    expect(await refusedWith(refreshBy(thief))).toMatchObject({ error: 'invalid_grant', message: expect.stringMatching(/another client/) });
    expect(await fixture.state()).toEqual(before);
    expect(await refreshBy(approved.clientId)).toMatchObject({ refresh_token: expect.stringMatching(/^lbr_/) });
  });
});

describe('a client uses only what it registered', () => {
  it('a client registered without refresh_token cannot refresh: unauthorized_client, nothing written', async () => {
    const approved = await approve('code-only', 'http://127.0.0.1:47200/code-only', ['authorization_code']);
    const tokens = await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved));
    const before = await fixture.state();
    const refused = await refusedWith(
      tokenRequest(
        fixture.ctx(),
        oauth,
        new URLSearchParams({ grant_type: 'refresh_token', client_id: approved.clientId, refresh_token: tokens.refresh_token }),
      ),
    );
    expect(refused.error).toBe('unauthorized_client');
    expect(await fixture.state()).toEqual(before);
  });

  it('a token request that sends a parameter twice is invalid_request and consumes nothing: the code still works', async () => {
    const approved = await approve('twice-param', 'http://127.0.0.1:47200/twice-param');
    const form = exchangeForm(approved);
    form.append('code', approved.code);
    const before = await fixture.state();
    expect(await refusedWith(tokenRequest(fixture.ctx(), oauth, form))).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/code is sent more than once/),
    });
    expect(await fixture.state()).toEqual(before);
    expect(await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved))).toMatchObject({
      access_token: expect.stringMatching(/^lbk_/),
    });
  });
});

describe('revocation (RFC 7009) by a client that does not hold the token', () => {
  it("another client's refresh token, access token, or an admin token is unauthorized_client and nothing is revoked", async () => {
    const approved = await approve('revoke-owner', 'http://127.0.0.1:47200/revoke-owner');
    const tokens = await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved));
    const { client_id: other } = await registerClient(
      fixture.ctx(),
      oauth,
      {
        client_name: 'revoke-other',
        redirect_uris: ['http://127.0.0.1:47200/revoke-other'],
      },
      '127.0.0.1',
    );
    const admin = await createToken(fixture.ctx(), { handle: 'binding.test', expiresInSeconds: 3600 });
    const before = await fixture.state();
    const revoke = (clientId: string, token: string) =>
      revokeByClient(fixture.ctx(), oauth, new URLSearchParams({ client_id: clientId, token }));
    expect((await refusedWith(revoke(other, tokens.refresh_token))).error).toBe('unauthorized_client');
    expect((await refusedWith(revoke(other, tokens.access_token))).error).toBe('unauthorized_client');
    // An admin or device token has no client: not any OAuth client's to revoke, not even the owner's app.
    expect((await refusedWith(revoke(approved.clientId, admin.token))).error).toBe('unauthorized_client');
    expect(await fixture.state()).toEqual(before);
  });
});
