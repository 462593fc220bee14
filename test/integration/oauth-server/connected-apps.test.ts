// The account page's connected apps: the person's live grants, newest first; a grant whose code
// was never exchanged expires with the code and is no longer listed. Written for the survivors
// of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { accountAccess } from '../../../src/app/oauth-server/account-access.ts';
import type { SignedInPerson } from '../../../src/app/oauth-server/consent.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { approvedCode, exchangeForm } from '../../helpers/oauth/in-process-flow.ts';

const fixture = useAppFixture('integration-oauth-connected-apps');
const oauth = oauthServerAt('http://127.0.0.1:9');
const person: SignedInPerson = {
  account: 'did:plc:oauthconnected0000000000',
  handle: 'connected.test',
  sessionCookie: 'lbs_session-of-the-connected',
};

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

/** Approves `name`; with `exchange`, its code is exchanged (which extends the grant to the refresh token's life). */
async function approve(name: string, exchange: boolean): Promise<void> {
  const approved = await approvedCode(fixture.ctx(), oauth, person, { name, redirectUri: `http://127.0.0.1:47600/${name}` });
  if (exchange) await tokenRequest(fixture.ctx(), oauth, exchangeForm(approved));
}

describe('connected apps on the account page', () => {
  it('lists the live grants newest first; a grant whose code was never exchanged is gone once the code expires', async () => {
    await approve('oldest-app', true);
    fixture.advance(1_000);
    await approve('never-exchanged', false);
    fixture.advance(1_000);
    await approve('newest-app', true);
    expect((await accountAccess(fixture.ctx(), person.account)).grants.map((grant) => grant.client_name)).toEqual([
      'newest-app',
      'never-exchanged',
      'oldest-app',
    ]);
    fixture.advance((oauth.settings.authorizationCodeSeconds + 1) * 1000);
    expect((await accountAccess(fixture.ctx(), person.account)).grants.map((grant) => grant.client_name)).toEqual([
      'newest-app',
      'oldest-app',
    ]);
  });
});
