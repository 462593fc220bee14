// A ban through the real server (design.md#bans): a person signed in with Bluesky holds a web session,
// an OAuth grant (access and refresh token, /mcp) and a device-flow token (/v1). After the ban each
// is refused on its next call — account_suspended (403, the reason in the message) on /mcp and
// /v1, invalid_grant on refresh, signed out on the account page — and signing in again with the
// same DID answers a page that says so. After the unban the person signs in and mints credentials
// again; those the ban revoked stay revoked.
import { describe, expect, it } from 'vitest';
import { banAccount, unbanAccount } from '../../../src/app/moderation/ban/account.ts';
import { authorizationCode, callListNotifications, exchange, newClient, refreshWith } from '../../helpers/oauth/oauth-flow.ts';
import { SignInRefused, signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds } = useSignInServer('e2e-ban-credentials', { config: { accountDeletionGraceSeconds: 0 } });
const REASON = 'Posted the same advert on forty stories.';

const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

/** The device flow as a script and its person run it: start, approve with the web session, poll. */
async function deviceToken(cookie: string): Promise<string> {
  const started = (await (await server.fetch('/v1/auth/device/start', form({ client_id: 'ban-skill' }))).json()) as Record<string, string>;
  const approved = await server.fetch(
    '/device',
    form({ user_code: String(started.user_code), decision: 'approve' }, { cookie, origin: server.baseUrl() }),
  );
  expect(approved.status).toBe(200);
  const polled = await server.fetch(
    '/v1/auth/device/poll',
    form({ device_code: String(started.device_code), grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }),
  );
  const body = (await polled.json()) as Record<string, string>;
  expect(body.access_token).toBeDefined();
  return String(body.access_token);
}

const v1 = (token: string) => server.fetch('/v1/notifications', { headers: { Authorization: `Bearer ${token}` } });
const accountPage = (cookie: string) => server.fetch('/account', { headers: { cookie }, redirect: 'manual' });

describe('a banned account', () => {
  it('has its web session, OAuth grant and device token refused on their next call, cannot sign in, and after the unban starts over', async () => {
    const account = await pds().createAccount('mallory');
    const signIn = () => signInWithBluesky({ baseUrl: server.baseUrl(), handle: account.handle, password: account.password });
    const { cookie } = await signIn();
    const person = { did: account.did, handle: account.handle, cookie };
    const client = await newClient(server.baseUrl());
    const { code, pkce } = await authorizationCode(server.baseUrl(), person, client);
    const grant = (await exchange(server.baseUrl(), client, code, pkce.verifier)).json() as Record<string, string>;
    const device = await deviceToken(cookie);
    expect((await callListNotifications(server.baseUrl(), String(grant.access_token))).status).toBe(200);
    expect((await v1(device)).status).toBe(200);
    expect((await accountPage(cookie)).status).toBe(200);

    await banAccount(server.app.ctx(), { target: account.handle, reason: REASON, actor: 'operator:e2e', op_id: 'op-ban-mallory' });

    const mcp = await callListNotifications(server.baseUrl(), String(grant.access_token));
    expect(mcp.status).toBe(403);
    expect(mcp.text).toContain('account_suspended');
    expect(mcp.text).toContain(REASON);
    const rest = await v1(device);
    expect(rest.status).toBe(403);
    expect(await rest.json()).toMatchObject({ code: 'account_suspended', retryable: false, details: { ban_reason: REASON } });
    expect((await refreshWith(server.baseUrl(), client, String(grant.refresh_token))).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await accountPage(cookie)).status).toBe(302);
    const refused = await signIn().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignInRefused);
    expect((refused as SignInRefused).status).toBe(403);
    expect((refused as SignInRefused).body).toContain(REASON);

    await unbanAccount(server.app.ctx(), {
      target: account.did,
      reason: 'Appeal accepted.',
      actor: 'operator:e2e',
      op_id: 'op-unban-mallory',
    });

    const again = await signIn();
    expect((await accountPage(again.cookie)).status).toBe(200);
    expect((await v1(await deviceToken(again.cookie))).status).toBe(200);
    // Revoked by the ban for good.
    const revoked = await v1(device);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ code: 'unauthenticated', details: { reason: 'credential_revoked' } });
    expect((await callListNotifications(server.baseUrl(), String(grant.access_token))).status).toBe(401);
    expect((await refreshWith(server.baseUrl(), client, String(grant.refresh_token))).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await accountPage(cookie)).status).toBe(302);
  });
});
