// The conditions of the OAuth writes, each driven into the race it guards (test/helpers/interleave:
// the competing write lands after the use case's read and before its transaction, every time).
// Sequential refusals never reach these conditions: the plan refuses from what it read. Written
// for the survivors of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeForAccount } from '../../../src/app/oauth-server/account-access.ts';
import { judgeAuthorizeRequest } from '../../../src/app/oauth-server/authorize-request.ts';
import { answerConsent, type SignedInPerson, showConsent } from '../../../src/app/oauth-server/consent.ts';
import { registerClient } from '../../../src/app/oauth-server/register-client.ts';
import { revokeGrantFamily } from '../../../src/app/oauth-server/revoke-grant.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { tokenId } from '../../../src/auth/token-secret.ts';
import { isOAuthError } from '../../../src/domain/oauth-error.ts';
import { markGrantRevoked } from '../../../src/store/identity/grant-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { connectedClient, pendingConsent } from '../../helpers/oauth/in-process-flow.ts';
import { pkcePair } from '../../helpers/oauth/oauth-flow.ts';

const fixture = useAppFixture('integration-oauth-write-races');
const oauth = oauthServerAt('http://127.0.0.1:9');
const person: SignedInPerson = {
  account: 'did:plc:oauthracer0000000000000',
  handle: 'racer.test',
  sessionCookie: 'lbs_session-of-the-racer',
};

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

const connected = (name: string) =>
  connectedClient(fixture.ctx(), oauth, person, { name, redirectUri: `http://127.0.0.1:47100/${name}` }, fixture.state);

const tokenItems = async (clientId: string) =>
  (await fixture.state()).filter((item) => item.client_id === clientId && /^(TOKEN|REFRESH)#/.test(String(item.PK)));

describe('a revocation that lands inside a refresh', () => {
  it('a refresh whose grant was marked revoked after its read mints nothing: invalid_grant, and the family gains no token', async () => {
    const { clientId, grantId, tokens } = await connected('revoked-mid-refresh');
    const before = await tokenItems(clientId);
    // Step one of revoking (the mark every mint is conditioned on), landing between the refresh's
    // read of its token and its transaction; the sweep has not run yet.
    afterNextRead(fixture.ctx(), () =>
      writeAtomically(fixture.ctx().store, [markGrantRevoked(grantId, new Date(fixture.ctx().store.now()).toISOString())]),
    );
    const refused = await tokenRequest(
      fixture.ctx(),
      oauth,
      new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }),
    ).catch((error: unknown) => error);
    expect(isOAuthError(refused) && refused.error).toBe('invalid_grant');
    expect((refused as Error).message).toMatch(/grant was revoked/);
    // The refresh token is not rotated and no successor exists: the whole transaction was refused.
    expect(await tokenItems(clientId)).toEqual(before);
  });
});

describe('one refresh token presented twice at the same moment', () => {
  it('the refresh that lost the race to rotate is reuse: it gets no successor and the family is revoked', async () => {
    const { clientId, tokens } = await connected('raced-refresh');
    const form = () => new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    let winner: unknown;
    afterNextRead(fixture.ctx(), async () => {
      winner = await tokenRequest(fixture.ctx(), oauth, form());
    });
    const loser = await tokenRequest(fixture.ctx(), oauth, form()).catch((error: unknown) => error);
    expect(winner).toMatchObject({ access_token: expect.stringMatching(/^lbk_/) });
    expect(isOAuthError(loser) && loser.error).toBe('invalid_grant');
    expect((loser as Error).message).toMatch(/already used \(rotated\)/);
    // Never two successors: the one the winner got went with the family.
    expect(await tokenItems(clientId)).toEqual([]);
  });
});

describe('Approve and Deny of one consent at the same moment', () => {
  const pending = (name: string) => pendingConsent(fixture.ctx(), oauth, person, { name, redirectUri: `http://127.0.0.1:47100/${name}` });

  it("a Deny that lands between an Approve's read and its write is the decision: the Approve answers access_denied and no grant or code exists", async () => {
    const { clientId, secret } = await pending('deny-inside-approve');
    afterNextRead(fixture.ctx(), () => answerConsent(fixture.ctx(), oauth, person, secret, false));
    const approve = await answerConsent(fixture.ctx(), oauth, person, secret, true);
    expect(approve.decision).toBe('denied');
    expect(new URL(approve.redirectTo).searchParams.get('error')).toBe('access_denied');
    const stored = (await fixture.state()).filter((item) => item.client_id === clientId && !String(item.PK).startsWith('OAUTHCLIENT#'));
    expect(stored.map((item) => String(item.PK).split('#')[0])).toEqual(['CONSENT']);
    expect(stored[0]).toMatchObject({ decision: 'denied' });
  });

  it("an Approve that lands between a Deny's read and its write is the decision: the Deny answers with the code", async () => {
    const { clientId, secret } = await pending('approve-inside-deny');
    afterNextRead(fixture.ctx(), () => answerConsent(fixture.ctx(), oauth, person, secret, true));
    const deny = await answerConsent(fixture.ctx(), oauth, person, secret, false);
    expect(deny.decision).toBe('approved');
    expect(new URL(deny.redirectTo).searchParams.get('code')).toMatch(/^lba_/);
    const consent = (await fixture.state()).find((item) => item.client_id === clientId && String(item.PK).startsWith('CONSENT#'));
    expect(consent).toMatchObject({ decision: 'approved' });
  });
});

describe('two revocations at the same moment', () => {
  it('of two revocations of one grant, the one that lost the race finds it gone: one says revoked, nothing of the family is left', async () => {
    const { clientId, grantId } = await connected('raced-revocation');
    let first: unknown;
    afterNextRead(
      fixture.ctx(),
      async () => {
        first = await revokeGrantFamily(fixture.ctx(), grantId);
      },
      'GetItem',
    );
    const second = await revokeGrantFamily(fixture.ctx(), grantId);
    expect([first, second]).toEqual([true, false]);
    expect((await fixture.state()).filter((item) => item.grant_id === grantId && !String(item.PK).startsWith('AUTHCODE#'))).toEqual([]);
    expect(await tokenItems(clientId)).toEqual([]);
  });

  it('of two revocations of one access token from the account page, the one that lost the race says it found nothing', async () => {
    const { clientId, tokens } = await connected('raced-token-revocation');
    const target = { kind: 'token' as const, id: tokenId(tokens.access_token) };
    let first: unknown;
    afterNextRead(
      fixture.ctx(),
      async () => {
        first = await revokeForAccount(fixture.ctx(), person.account, target);
      },
      'GetItem',
    );
    const second = await revokeForAccount(fixture.ctx(), person.account, target);
    expect([first, second]).toEqual([true, false]);
    expect((await tokenItems(clientId)).filter((item) => String(item.PK).startsWith('TOKEN#'))).toEqual([]);
  });
});

describe('a consent page shown in two tabs while one of them answers', () => {
  it('a show that read nothing does not overwrite a consent decided meanwhile: it answers the decided consent', async () => {
    const redirectUri = 'http://127.0.0.1:47100/two-tabs';
    const { client_id: clientId } = await registerClient(
      fixture.ctx(),
      oauth,
      { client_name: 'two-tabs', redirect_uris: [redirectUri] },
      '127.0.0.1',
    );
    const verdict = await judgeAuthorizeRequest(
      fixture.ctx(),
      oauth,
      new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    if (!verdict.ok) throw verdict.error;
    const request = verdict.request;
    // The other tab shows the same page and approves it between this show's read and its write.
    afterNextRead(fixture.ctx(), async () => {
      const { consentSecret } = await showConsent(fixture.ctx(), oauth, person, request);
      await answerConsent(fixture.ctx(), oauth, person, consentSecret, true);
    });
    const shown = await showConsent(fixture.ctx(), oauth, person, request);
    expect(shown.consent.decision).toBe('approved');
    const consent = (await fixture.state()).find((item) => item.client_id === clientId && String(item.PK).startsWith('CONSENT#'));
    expect(consent).toMatchObject({ decision: 'approved' });
  });
});
