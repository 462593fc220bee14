// Revoking a grant family in full: a store failure while marking is reported (never swallowed as
// "someone else revoked it"), finishing a cut-off revocation says it revoked nothing new, and a
// family too large for one transaction (over 100 deletes) is swept in several. Written for the
// survivors of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInPerson } from '../../../src/app/oauth-server/consent.ts';
import { revokeGrantFamily } from '../../../src/app/oauth-server/revoke-grant.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { injectStoreFault } from '../../helpers/inject-store-fault.ts';
import { connectedClient } from '../../helpers/oauth/in-process-flow.ts';

const fixture = useAppFixture('integration-oauth-revocation');
const oauth = oauthServerAt('http://127.0.0.1:9');
const person: SignedInPerson = {
  account: 'did:plc:oauthrevoker00000000000',
  handle: 'revoker.test',
  sessionCookie: 'lbs_session-of-the-revoker',
};

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

const connected = (name: string) =>
  connectedClient(fixture.ctx(), oauth, person, { name, redirectUri: `http://127.0.0.1:47500/${name}` }, fixture.state);

/** Everything the family left, but the consumed code (kept until its TTL to recognise a replay). */
const familyOf = async (grantId: string) =>
  (await fixture.state()).filter(
    (item) => (item.grant_id === grantId || String(item.PK) === `GRANT#${grantId}`) && !String(item.PK).startsWith('AUTHCODE#'),
  );

describe('revoking a grant family', () => {
  it('a store failure while marking the grant is reported as store_unavailable and the family is left whole for the retry', async () => {
    const { grantId } = await connected('mark-fails');
    const before = await fixture.state();
    // Calls of a revocation: read the grant (0), mark it revoked (1).
    const fault = injectStoreFault(fixture.ctx().store.client, { call: 1, moment: 'before' });
    try {
      await expect(revokeGrantFamily(fixture.ctx(), grantId)).rejects.toMatchObject({ code: 'store_unavailable' });
    } finally {
      fault.remove();
    }
    expect(await fixture.state()).toEqual(before);
    expect(await revokeGrantFamily(fixture.ctx(), grantId)).toBe(true);
    expect(await familyOf(grantId)).toEqual([]);
  });

  it('finishing a revocation cut off after its mark sweeps the family and says it revoked nothing new', async () => {
    const { grantId } = await connected('cut-after-mark');
    // Calls of a revocation: read the grant (0), mark it revoked (1), query its members (2).
    const fault = injectStoreFault(fixture.ctx().store.client, { call: 2, moment: 'before' });
    try {
      await expect(revokeGrantFamily(fixture.ctx(), grantId)).rejects.toMatchObject({ code: 'store_unavailable' });
    } finally {
      fault.remove();
    }
    const marked = (await familyOf(grantId)).find((item) => item.SK === 'META');
    expect(marked).toHaveProperty('revoked_at');
    expect(await revokeGrantFamily(fixture.ctx(), grantId)).toBe(false);
    expect(await familyOf(grantId)).toEqual([]);
  });

  it('a family of 26 token sets (130 deletes, more than one transaction holds) is revoked in full', async () => {
    const { clientId, grantId, tokens } = await connected('large-family');
    let refreshToken = tokens.refresh_token;
    for (let refresh = 0; refresh < 25; refresh += 1) {
      refreshToken = (
        await tokenRequest(
          fixture.ctx(),
          oauth,
          new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
        )
      ).refresh_token;
    }
    expect((await familyOf(grantId)).filter((item) => String(item.PK).startsWith('TOKEN#'))).toHaveLength(26);
    expect(await revokeGrantFamily(fixture.ctx(), grantId)).toBe(true);
    expect(await familyOf(grantId)).toEqual([]);
  });
});
