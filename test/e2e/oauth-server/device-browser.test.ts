// The device flow as a person meets it, in a real browser (headless Chromium through
// playwright-core, test/helpers/chromium.ts): the script's verification_uri_complete -> lorebook's
// sign-in form -> the real PDS's own sign-in and consent pages -> back to /device -> Approve. No
// cookie is planted: the session is the one the real callback set.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../helpers/chromium.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds } = useSignInServer('e2e-device-browser');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('the device flow in Chromium', () => {
  it('a person opens the link, signs in on their PDS, approves, and the script gets a token for them', async () => {
    const alice = await pds().createAccount('alice');
    const started = (await (
      await server.fetch('/v1/auth/device/start', { method: 'POST', body: new URLSearchParams({ client_id: 'browser-skill' }) })
    ).json()) as {
      device_code: string;
      user_code: string;
      verification_uri_complete: string;
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(started.verification_uri_complete);
      // Not signed in: lorebook's plain sign-in form, carrying the way back.
      expect(await page.locator('h1').textContent()).toBe('Sign in to lorebook with Bluesky');
      await page.getByLabel('Your Bluesky handle').fill(alice.handle);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${pds().url}/oauth/authorize**`);
      // The PDS's own page (its React UI, our handle filled in): the password, then sign in.
      await page.getByPlaceholder('Enter your password').fill(alice.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Its consent screen: lorebook asks only to identify the person.
      await page.getByRole('button', { name: 'Authorize' }).click();
      // Back through /auth/callback to where the person was going, now signed in.
      await page.waitForURL(started.verification_uri_complete);
      expect(await page.locator('h1').textContent()).toBe('Approve “browser-skill”?');
      const confirm = await page.locator('body').innerText();
      expect(confirm).toContain(`@${alice.handle}`);
      expect(confirm).toContain(started.user_code);
      const cookie = (await context.cookies(server.baseUrl())).find((c) => c.name === 'lorebook_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });

      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForLoadState();
      expect(await page.locator('h1').textContent()).toBe('Approved');
    } finally {
      await context.close();
    }
    const poll = await server.fetch('/v1/auth/device/poll', {
      method: 'POST',
      body: new URLSearchParams({ device_code: started.device_code }),
    });
    expect(poll.status).toBe(200);
    expect(await poll.json()).toMatchObject({ token_type: 'Bearer', account: alice.did, handle: alice.handle });
  });

  it('Deny on the PDS comes back to a plain page that says nothing was changed', async () => {
    const bob = await pds().createAccount('bob');
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${server.baseUrl()}/auth/login?handle=${bob.handle}`);
      await page.getByPlaceholder('Enter your password').fill(bob.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Deny access' }).click();
      await page.waitForURL(`${server.baseUrl()}/auth/callback**`);
      expect(await page.locator('h1').textContent()).toBe('Sign-in stopped');
      expect(await page.locator('body').innerText()).toContain('Nothing was changed');
      expect((await context.cookies(server.baseUrl())).map((c) => c.name)).not.toContain('lorebook_session');
    } finally {
      await context.close();
    }
  });
});
