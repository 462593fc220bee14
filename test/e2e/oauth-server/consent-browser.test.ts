// The consent and account pages in a real browser (headless Chromium through playwright-core,
// test/helpers/chromium.ts): no scripts needed, the CSP in force, a real form POST with the
// SameSite=Lax session cookie. Approve sends the browser to the client with a code that works; Deny
// with access_denied; Disconnect on the account page revokes the app's token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_SESSION_COOKIE } from '../../../src/app/sign-in/web-session.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizePath,
  type Client,
  callListNotifications,
  exchange,
  type Person,
  pkcePair,
  registerClient,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-browser');
let browser: Browser;
let alice: Person;
/** The client's own loopback callback (as a native MCP client listens on 127.0.0.1). */
let callback: Server;

beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
  callback = createServer((_request, response) => response.end('the client got the answer'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callback?.close(resolve));
});

async function newClient(baseUrl: string, name: string): Promise<Client> {
  const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback/${encodeURIComponent(name)}`;
  const registered = await registerClient(baseUrl, { client_name: name, redirect_uris: [redirectUri] });
  return { client_id: String(registered.json().client_id), redirect_uri: redirectUri };
}

/** A browser signed in as the person (the session cookie /auth/callback sets). */
async function signedInBrowser(person: Person): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([
    { name: WEB_SESSION_COOKIE, value: person.cookie.split('=')[1] ?? '', url: server.baseUrl(), httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}

describe('the consent page in Chromium', () => {
  it('names the app, the account and what it may do; Approve lands on the client with a working code', async () => {
    const client = await newClient(server.baseUrl(), 'Browser App');
    const context = await signedInBrowser(alice);
    const page = await context.newPage();
    const pkce = pkcePair();
    await page.goto(
      `${server.baseUrl()}${authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkce.challenge, state: 'b1' })}`,
    );
    expect(await page.locator('h1').textContent()).toBe('Connect “Browser App” to lorebook?');
    const text = await page.locator('body').textContent();
    expect(text).toContain('@alice.test');
    expect(text).toContain('publish stories and edit your stories');
    expect(text).toContain(new URL(client.redirect_uri).host);
    await Promise.all([page.waitForURL(`${client.redirect_uri}**`), page.getByRole('button', { name: 'Approve' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('b1');
    const token = await exchange(server.baseUrl(), client, landed.searchParams.get('code') ?? '', pkce.verifier);
    expect(token.status).toBe(200);
    expect((await callListNotifications(server.baseUrl(), String(token.json().access_token))).status).toBe(200);

    // The account page lists the app; Disconnect revokes it.
    await page.goto(`${server.baseUrl()}/account`);
    expect(await page.locator('body').textContent()).toContain('Browser App');
    await Promise.all([page.waitForURL('**/account?done=revoked'), page.getByRole('button', { name: 'Disconnect' }).click()]);
    expect(await page.locator('body').textContent()).not.toContain('Browser App');
    expect((await callListNotifications(server.baseUrl(), String(token.json().access_token))).status).toBe(401);
    await context.close();
  });

  it('Deny lands on the client with access_denied and no code', async () => {
    const client = await newClient(server.baseUrl(), 'Denied App');
    const context = await signedInBrowser(alice);
    const page = await context.newPage();
    await page.goto(
      `${server.baseUrl()}${authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge, state: 'b2' })}`,
    );
    await Promise.all([page.waitForURL(`${client.redirect_uri}**`), page.getByRole('button', { name: 'Deny' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('b2');
    expect(landed.searchParams.get('code')).toBeNull();
    await context.close();
  });
});
