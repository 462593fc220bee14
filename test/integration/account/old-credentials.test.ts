// After a deletion is accepted (design.md#account-deletion), the account's old credentials are refused everywhere,
// before the background steps have run: a bearer token (read fresh, and remembered by another
// instance), a web session, an OAuth refresh token; a Bluesky sign-in during the deletion is
// refused, and after it starts a new, empty account that the old credentials still cannot reach.
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { authenticateAlongside } from '../../../src/app/oauth-server/authenticate.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { readWebSession, startWebSession, WEB_SESSION_COOKIE } from '../../../src/app/sign-in/web-session.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { tokenId } from '../../../src/auth/token-secret.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { connectedClient } from '../../helpers/oauth/in-process-flow.ts';
import { useOutside } from '../../helpers/outside.ts';

// The finish waits for no grace here: no write races these deletions (the grace has its test in account-deletion.test.ts).
const app = useAppFixture('account-old-credentials', { accountDeletionGraceSeconds: 0 });
const outside = useOutside(app);
let instanceB: AppContext | undefined;
const b = (): AppContext => (instanceB ??= outside());

/** What a call with the token gets once its account check is in: `accepted` or the refusal's reason. */
async function verdict(ctx: AppContext, token: string, resource?: string): Promise<string> {
  try {
    const authenticated = await authenticateAlongside(ctx, `Bearer ${token}`, resource);
    await authenticated?.standing();
    return 'accepted';
  } catch (error) {
    const refused = error as { code?: string; details?: { reason?: string } };
    return `${refused.code}: ${refused.details?.reason}`;
  }
}

describe('old credentials are refused from the moment the deletion is accepted', () => {
  it('token (fresh and remembered), web session and refresh token; a new sign-in after the deletion is empty', async () => {
    const oauth = oauthServerAt('http://127.0.0.1:9');
    const person = { account: 'did:plc:leaving00000000000000000', handle: 'leaving.test', sessionCookie: 'lbs_session-leaving' };
    await recordBlueskySignIn(app.ctx(), { did: person.account, handle: person.handle });
    const session = await startWebSession(app.ctx(), person.account);
    const cookie = `${WEB_SESSION_COOKIE}=${session.cookieValue}`;
    const { clientId, tokens } = await connectedClient(
      app.ctx(),
      oauth,
      person,
      { name: 'leaving-app', redirectUri: 'http://127.0.0.1:47502/cb' },
      app.state,
    );
    const resource = String((await app.state()).find((item) => item.PK === `TOKEN#${tokenId(tokens.access_token)}`)?.resource);
    // Instance B remembers the access token (context/verified-tokens.ts) before the deletion.
    expect(await verdict(b(), tokens.access_token, resource)).toBe('accepted');
    expect(await readWebSession(app.ctx(), cookie)).toMatchObject({ accountId: person.account });

    await deleteAccount(app.ctx(), { account: person.account, handle: person.handle }, { confirm: person.handle });

    // No step has run yet: everything still exists, and everything is refused.
    expect(await verdict(app.ctx(), tokens.access_token, resource)).toBe('unauthenticated: account_deleted');
    expect(await verdict(b(), tokens.access_token, resource)).toBe('unauthenticated: account_deleted');
    expect(await readWebSession(app.ctx(), cookie)).toBeUndefined();
    const refresh = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    await expect(tokenRequest(app.ctx(), oauth, refresh)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(recordBlueskySignIn(app.ctx(), { did: person.account, handle: person.handle })).rejects.toMatchObject({
      code: 'conflict',
    });

    expect((await deleteAccountSteps(app.ctx(), person.account, 1_000)).finished).toBe(true);
    const again = await recordBlueskySignIn(app.ctx(), { did: person.account, handle: person.handle });
    expect(again.created).toBe(true);
    const items = await app.allItems();
    // Besides the new account: the consumed code and its consent, which expire within minutes (kept, design.md#account-deletion).
    const shortLived = (item: Record<string, unknown>): boolean => /^(AUTHCODE|CONSENT)#/.test(String(item.PK));
    expect(items.filter(shortLived).every((item) => typeof item.expires_at === 'number')).toBe(true);
    expect(
      items.filter((item) => JSON.stringify(item).includes(person.account) && !shortLived(item)).map((item) => `${item.PK}/${item.SK}`),
    ).toEqual([`ACCOUNT#${person.account}/META`, `HANDLE#${person.handle}/META`]);
    // The old credentials stay refused on the new account (gone, and older than its reset_at).
    expect(await verdict(b(), tokens.access_token, resource)).toMatch(/^unauthenticated/);
    expect(await readWebSession(app.ctx(), cookie)).toBeUndefined();
  });

  it('a local account deleted: `token create --handle` again makes a new, empty account', async () => {
    const first = await createToken(app.ctx(), { handle: 'local-leaver', expiresInSeconds: 3600 });
    await deleteAccount(app.ctx(), { account: first.account, handle: 'local-leaver' }, { confirm: 'local-leaver' });
    expect((await deleteAccountSteps(app.ctx(), first.account, 1_000)).finished).toBe(true);
    const second = await createToken(app.ctx(), { handle: 'local-leaver', expiresInSeconds: 3600 });
    expect(second.account).not.toBe(first.account);
    expect(await verdict(app.ctx(), first.token)).toMatch(/^unauthenticated/);
    expect(await verdict(app.ctx(), second.token)).toBe('accepted');
  });
});
