// Login CSRF: a callback URL works only in the browser that started the sign-in. An attacker who
// signs in on their own browser and hands the victim the callback URL (instead of following it)
// must not sign the victim in as the attacker — nor, through that session, let the victim approve
// a device code for the attacker's account.
import { describe, expect, it } from 'vitest';
import { SIGN_IN_BINDING_COOKIE } from '../../../src/auth/sign-in-binding.ts';
import { send } from '../../helpers/signin/http-client.ts';
import { authorizeWithBluesky, CookieJar, deliverCallback } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds } = useSignInServer('e2e-sign-in-csrf');
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

describe('Login CSRF: a sign-in is bound to the browser that started it', () => {
  it('/auth/login sets an HttpOnly SameSite=Lax binding cookie scoped to /auth', async () => {
    const mallory = await pds().createAccount('mallory');
    const jar = new CookieJar();
    const started = await send('GET', `${server.baseUrl()}/auth/login?handle=${mallory.handle}`, { jar, headers: { accept: 'text/html' } });
    expect(started.status).toBe(302);
    const cookie = [started.headers['set-cookie']].flat().find((line) => line?.startsWith(`${SIGN_IN_BINDING_COOKIE}=`));
    expect(cookie).toMatch(/^lorebook_sign_in=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/auth; HttpOnly; SameSite=Lax$/);
    // A second tab of the same browser keeps the same binding, so both sign-ins stay usable.
    const again = await send('GET', `${server.baseUrl()}/auth/login?handle=${mallory.handle}`, { jar, headers: { accept: 'text/html' } });
    expect(jar.get(server.baseUrl(), SIGN_IN_BINDING_COOKIE)).toBe(cookie?.split(/[=;]/)[1]);
    expect(again.status).toBe(302);
  });

  it("the attacker's callback URL opened in the victim's browser is refused (403), writes nothing, and signs no one in", async () => {
    const mallory = await pds().createAccount('mallory2');
    const attacker = new CookieJar();
    const { callbackUrl } = await authorizeWithBluesky({
      baseUrl: server.baseUrl(),
      handle: mallory.handle,
      password: mallory.password,
      cookieJar: attacker,
    });
    const before = await stored();

    // The victim has their own binding cookie (they once started a sign-in) — not the attacker's.
    const victim = new CookieJar();
    await send('GET', `${server.baseUrl()}/auth/login?handle=${mallory.handle}`, { jar: victim, headers: { accept: 'text/html' } });
    const afterVictimStart = await stored();
    const refused = await deliverCallback(callbackUrl, victim);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('This sign-in link was started in another browser');
    expect(refused.body).toContain('<code>forbidden</code>');
    expect(victim.get(server.baseUrl(), 'lorebook_session')).toBeUndefined();
    expect(await stored()).toEqual(afterVictimStart);
    // A browser with no binding cookie at all, as JSON: the same refusal, typed.
    const bare = await server.fetch(new URL(callbackUrl).pathname + new URL(callbackUrl).search, { redirect: 'manual' });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ code: 'forbidden', retryable: false, details: { reason: 'other_browser' } });
    expect(await stored()).toEqual(afterVictimStart);

    // No session: the device page sends the victim to sign in, so no device code can be approved as Mallory.
    const device = await send('GET', `${server.baseUrl()}/device?user_code=BCDF-GHJK`, { jar: victim, headers: { accept: 'text/html' } });
    expect(device.status).toBe(302);
    expect(device.location).toContain('/auth/login?return_to=');
    expect(before.filter((item) => String(item.PK).startsWith('WEBSESS#'))).toEqual(
      (await stored()).filter((item) => String(item.PK).startsWith('WEBSESS#')),
    );

    // The link was not spent: in the attacker's own browser it still signs the attacker in.
    const own = await deliverCallback(callbackUrl, attacker);
    expect(own.status).toBe(303);
    expect(attacker.get(server.baseUrl(), 'lorebook_session')).toMatch(/^lbs_/);
  });
});
