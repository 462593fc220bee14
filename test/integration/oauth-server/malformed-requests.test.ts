// Token and revocation requests that are missing what they need, or name nothing lorebook issued,
// are refused with the OAuth error RFC 6749 §5.2 / RFC 7009 §2.2.1 name, and nothing is written.
// Written for the uncovered mutants of the targeted mutation run (docs/mutation-survivors.md).
import { describe, expect, it } from 'vitest';
import { registerClient } from '../../../src/app/oauth-server/register-client.ts';
import { revokeByClient } from '../../../src/app/oauth-server/revoke-token.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { isOAuthError } from '../../../src/domain/oauth-error.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { pkcePair } from '../../helpers/oauth/oauth-flow.ts';

const fixture = useAppFixture('integration-oauth-malformed');
const oauth = oauthServerAt('http://127.0.0.1:9');
const REDIRECT = 'http://127.0.0.1:47300/malformed';

/** The OAuth error of a refused call, and that the store is exactly as before it. */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  const before = await fixture.state();
  const outcome = await call().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isOAuthError(outcome)) throw new Error(`expected an OAuth refusal, got ${String(outcome)}`);
  expect(await fixture.state()).toEqual(before);
  return outcome.error;
}

const token = (fields: Record<string, string>) => () => tokenRequest(fixture.ctx(), oauth, new URLSearchParams(fields));
const revoke = (fields: Record<string, string>) => () => revokeByClient(fixture.ctx(), oauth, new URLSearchParams(fields));

describe('the token endpoint refuses an incomplete or unknown request and writes nothing', () => {
  it('without grant_type: invalid_request', async () => {
    const { client_id } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'no-grant-type', redirect_uris: [REDIRECT] },
      '127.0.0.1',
    );
    expect(await refusal(token({ client_id, code: 'lba_x' }))).toBe('invalid_request');
  });

  it('without client_id, or with one lorebook does not know: invalid_client, status 401', async () => {
    const code = { grant_type: 'authorization_code', code: 'lba_never-issued', redirect_uri: REDIRECT, code_verifier: pkcePair().verifier };
    for (const fields of [code, { ...code, client_id: `lbc_${'0'.repeat(32)}` }, { ...code, client_id: 'not-a-client-id' }]) {
      expect(await refusal(token(fields))).toBe('invalid_client');
      expect(await tokenRequest(fixture.ctx(), oauth, new URLSearchParams(fields)).catch((error: unknown) => error)).toMatchObject({
        status: 401,
      });
    }
  });

  it('an empty parameter counts as absent: grant_type= is invalid_request, resource= asks for no particular resource', async () => {
    const { client_id } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'empty-params', redirect_uris: [REDIRECT] },
      '127.0.0.1',
    );
    expect(await refusal(token({ grant_type: '', client_id }))).toBe('invalid_request');
    // Not invalid_target: an empty resource is no resource, so the next check (the unknown code) answers.
    expect(
      await refusal(
        token({
          grant_type: 'authorization_code',
          client_id,
          resource: '',
          code: 'lba_never-issued',
          redirect_uri: REDIRECT,
          code_verifier: pkcePair().verifier,
        }),
      ),
    ).toBe('invalid_grant');
  });

  it('an authorization_code request without code, redirect_uri or code_verifier: invalid_request', async () => {
    const { client_id } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'incomplete-exchange', redirect_uris: [REDIRECT] },
      '127.0.0.1',
    );
    const complete = {
      grant_type: 'authorization_code',
      client_id,
      code: 'lba_unknown',
      redirect_uri: REDIRECT,
      code_verifier: pkcePair().verifier,
    };
    for (const missing of ['code', 'redirect_uri', 'code_verifier'] as const) {
      const { [missing]: _left, ...fields } = complete;
      expect(await refusal(token(fields))).toBe('invalid_request');
    }
  });

  it('a code lorebook never issued: invalid_grant', async () => {
    const { client_id } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'unknown-code', redirect_uris: [REDIRECT] },
      '127.0.0.1',
    );
    expect(
      await refusal(
        token({
          grant_type: 'authorization_code',
          client_id,
          code: 'lba_never-issued',
          redirect_uri: REDIRECT,
          code_verifier: pkcePair().verifier,
        }),
      ),
    ).toBe('invalid_grant');
  });

  it('a refresh_token request without refresh_token is invalid_request; a malformed or unknown one is invalid_grant', async () => {
    const { client_id } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'bad-refresh', redirect_uris: [REDIRECT] },
      '127.0.0.1',
    );
    expect(await refusal(token({ grant_type: 'refresh_token', client_id }))).toBe('invalid_request');
    expect(await refusal(token({ grant_type: 'refresh_token', client_id, refresh_token: 'not-a-refresh-token' }))).toBe('invalid_grant');
    expect(await refusal(token({ grant_type: 'refresh_token', client_id, refresh_token: `lbr_${'A'.repeat(43)}` }))).toBe('invalid_grant');
  });
});

describe('revocation refuses a request without a token or a client, and writes nothing', () => {
  it('without token: invalid_request; without or with an unknown client_id: invalid_client', async () => {
    const { client_id } = await registerClient(fixture.ctx(), oauth, { client_name: 'revoker', redirect_uris: [REDIRECT] }, '127.0.0.1');
    expect(await refusal(revoke({ client_id }))).toBe('invalid_request');
    expect(await refusal(revoke({ token: 'lbk_anything' }))).toBe('invalid_client');
    expect(await refusal(revoke({ token: 'lbk_anything', client_id: `lbc_${'0'.repeat(32)}` }))).toBe('invalid_client');
  });
});
