// What one consent decision writes and says: Approve creates a grant that lives as long as its
// code until the code is exchanged, the decided consent is kept as long as the web session could
// reload its page, and each decision is logged once — a second click logs nothing. Written for
// the survivors of the targeted mutation run (docs/mutation-survivors.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { answerConsent, type SignedInPerson } from '../../../src/app/oauth-server/consent.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { WEB_SESSION_SECONDS } from '../../../src/app/sign-in/web-session.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { pendingConsent } from '../../helpers/oauth/in-process-flow.ts';

const fixture = useAppFixture('integration-oauth-consent-decision');
const logs: string[] = [];
const oauth = oauthServerAt('http://127.0.0.1:9', undefined, (line) => void logs.push(line));
const person: SignedInPerson = {
  account: 'did:plc:oauthdecider0000000000',
  handle: 'decider.test',
  sessionCookie: 'lbs_session-of-the-decider',
};

beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

const pending = (name: string) => pendingConsent(fixture.ctx(), oauth, person, { name, redirectUri: `http://127.0.0.1:47400/${name}` });

const itemsOf = async (clientId: string, prefix: string) =>
  (await fixture.state()).filter((item) => item.client_id === clientId && String(item.PK).startsWith(prefix));

describe('one consent decision', () => {
  it('Approve: the grant lives as long as its code, the decided consent as long as the session could reload it', async () => {
    const { clientId, secret } = await pending('lifetimes');
    const at = epochSeconds(fixture.ctx().store.now());
    await answerConsent(fixture.ctx(), oauth, person, secret, true);
    const [code] = await itemsOf(clientId, 'AUTHCODE#');
    const [grant] = (await itemsOf(clientId, 'GRANT#')).filter((item) => item.SK === 'META');
    const [consent] = await itemsOf(clientId, 'CONSENT#');
    expect(Number(code?.expires_at)).toBeGreaterThanOrEqual(at + oauth.settings.authorizationCodeSeconds);
    expect(grant?.expires_at).toBe(code?.expires_at);
    expect(Number(consent?.expires_at)).toBeGreaterThanOrEqual(at + WEB_SESSION_SECONDS + oauth.settings.consentSeconds);
  });

  it('each decision is logged once, as what it was; a second click logs nothing', async () => {
    const approved = await pending('logged-approve');
    const denied = await pending('logged-deny');
    const from = logs.length;
    await answerConsent(fixture.ctx(), oauth, person, approved.secret, true);
    // Logged by the click that decided, not by a later one.
    expect(logs.slice(from)).toEqual([
      expect.stringMatching(/^lorebook: oauth consent approved: "logged-approve" \(grant [0-9a-f]{32}\) may act as did:plc:oauthdecider/),
    ]);
    await answerConsent(fixture.ctx(), oauth, person, approved.secret, true);
    await answerConsent(fixture.ctx(), oauth, person, denied.secret, false);
    expect(logs.slice(from + 1)).toEqual([
      'lorebook: oauth consent denied: "logged-deny" for did:plc:oauthdecider0000000000 (@decider.test)',
    ]);
    await answerConsent(fixture.ctx(), oauth, person, denied.secret, false);
    expect(logs).toHaveLength(from + 2);
  });
});
