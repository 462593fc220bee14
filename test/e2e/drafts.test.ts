// Drafts for someone else end to end, on the real server over HTTP: one agent drafts through the
// MCP SDK client, the invitee opens the claim URL in a browser session (its Claim form) or claims
// through /v1 with a bearer token, publishes through MCP, and the story page credits the drafter —
// read in headless Chromium (test/helpers/chromium.ts), with the claim page's hostile markdown and
// note inert, once as served and once with its CSP stripped.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebSession, WEB_SESSION_COOKIE } from '../../src/app/sign-in/web-session.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { storedDraft } from '../helpers/drafts.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

vi.setConfig({ testTimeout: 120_000 });

const server = useLorebookServer('drafts-e2e');
let browser: Browser | undefined;
afterAll(async () => browser?.close());

/** Each would set window.__pwned (or open a dialog) if it ever ran. */
const HOSTILE_MARKDOWN = [
  '<script>window.__pwned = "script"; document.title = "pwned";</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  "[click me](javascript:window.__pwned='link')",
].join('\n\n');
const HOSTILE_NOTE = '<script>window.__pwned="note"</script><b onmouseover=alert(1)>hi</b>';

interface Draft {
  draft: { id: string; status: string };
  claim_url: string;
}

let dana = { token: '', account: '' };
let ivy = { token: '', account: '' };
let drafted: Draft | undefined;

beforeAll(async () => {
  dana = await server.token('dana');
  ivy = await server.token('ivy');
});

const claimPathOf = (url: string): string => new URL(url).pathname;
const sessionCookieFor = async (account: string): Promise<string> =>
  `${WEB_SESSION_COOKIE}=${(await startWebSession(server.app.ctx(), account)).cookieValue}`;

describe('a draft for someone else, end to end', () => {
  it('draft_story_for over MCP answers a claim URL; the same draft_key answers the same one', async () => {
    const client = await server.mcp(dana.token);
    const args = {
      markdown: storyTitled('Drafted for ivy over MCP').replace(
        'I tried a lock item first',
        `${HOSTILE_MARKDOWN}\n\nI tried a lock item first`,
      ),
      invitee_note: HOSTILE_NOTE,
      invitee_handle: 'ivy',
      draft_key: 'e2e-draft-key-0000-0001',
    };
    drafted = answerOf<Draft>(await client.callTool({ name: 'draft_story_for', arguments: args }));
    expect(drafted.claim_url).toMatch(new RegExp(`^${server.baseUrl()}/claim/lbc_[A-Za-z0-9_-]{43}$`));
    const again = answerOf<Draft>(await client.callTool({ name: 'draft_story_for', arguments: args }));
    expect(again).toEqual(drafted);
  });

  it('the claim page shows the draft, its drafter and note escaped, and asks a signed-out visitor to sign in', async () => {
    const page = await server.fetch(claimPathOf(drafted?.claim_url ?? ''));
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(page.headers.get('set-cookie')).toMatch(/lorebook_claim=lbc_[^;]+; Max-Age=900; Path=\/claim; HttpOnly; SameSite=Lax/);
    const text = await page.text();
    expect(text).toContain('Drafted for you by <a href="/a/dana">@dana</a>');
    expect(text).toContain('&lt;script&gt;window.__pwned=&quot;note&quot;&lt;/script&gt;');
    // Raw HTML in the narrative comes out as text, and a javascript: link as no link.
    expect(text).not.toContain('<script>');
    expect(text).not.toMatch(/<img[^>]*onerror/);
    expect(text).not.toContain('href="javascript:');
    expect(text).not.toContain('<b onmouseover');
    expect(text).toContain('href="/auth/login?return_to=%2Fclaim"');
    expect(text).not.toContain('<form');
  });

  it('the Claim form refuses a forged CSRF value and another handle, writing nothing, then claims for ivy', async () => {
    const path = claimPathOf(drafted?.claim_url ?? '');
    const id = drafted?.draft.id ?? '';
    const forged = await server.fetch(path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: await sessionCookieFor(ivy.account), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=forged&action=claim',
    });
    expect(forged.status).toBe(403);
    expect(await storedDraft(server.app, id)).toMatchObject({ status: 'open' });

    const stranger = await server.token('stranger');
    const strangerCookie = await sessionCookieFor(stranger.account);
    const strangerPage = await (await server.fetch(path, { headers: { cookie: strangerCookie } })).text();
    const strangerCsrf = /name="csrf" value="([^"]+)"/.exec(strangerPage)?.[1] ?? '';
    const wrongHandle = await server.fetch(path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: strangerCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(strangerCsrf)}&action=claim`,
    });
    expect(wrongHandle.status).toBe(403);
    expect(await wrongHandle.text()).toContain('This draft is for @ivy');
    expect(await storedDraft(server.app, id)).toMatchObject({ status: 'open' });

    const cookie = await sessionCookieFor(ivy.account);
    const signedIn = await (await server.fetch(path, { headers: { cookie } })).text();
    expect(signedIn).toContain('Signed in as @ivy');
    const csrf = /name="csrf" value="([^"]+)"/.exec(signedIn)?.[1] ?? '';
    const claimed = await server.fetch(path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(csrf)}&action=claim`,
    });
    expect(claimed.status).toBe(303);
    expect(claimed.headers.get('location')).toBe(`${path}?done=claimed`);
    expect(await storedDraft(server.app, id)).toMatchObject({ status: 'claimed', claimer: ivy.account });
    // Single use: the link no longer shows the story to anyone but the drafter and the claimer.
    const afterClaim = await (await server.fetch(path)).text();
    expect(afterClaim).toContain('Claimed.');
    expect(afterClaim).not.toContain('story-body');
    expect(await (await server.fetch(path, { headers: { cookie } })).text()).toContain('story-body');
  });

  it("POST /v1/drafts/claim with the invitee's bearer token answers the same claim; another handle's account gets 403", async () => {
    const claim = (token: string) =>
      server.fetch('/v1/drafts/claim', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ claim_url: drafted?.claim_url }),
      });
    const again = await claim(ivy.token);
    expect(again.status).toBe(200);
    expect(((await again.json()) as Draft).draft).toMatchObject({ status: 'claimed', claimer: { handle: 'ivy' } });
    const other = await server.token('other');
    const refused = await claim(other.token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('forbidden');
  });

  it('list_drafts and publish_draft over MCP: the story is ivy’s, drafted_by dana, in get_story and on the page', async () => {
    const client = await server.mcp(ivy.token);
    const listed = answerOf<{ drafts: { id: string; role: string; status: string }[] }>(
      await client.callTool({ name: 'list_drafts', arguments: {} }),
    );
    expect(listed.drafts).toEqual([expect.objectContaining({ id: drafted?.draft.id, role: 'claimer', status: 'claimed' })]);
    const published = answerOf<{ slug: string; draft_id: string }>(
      await client.callTool({ name: 'publish_draft', arguments: { draft_id: drafted?.draft.id } }),
    );
    const story = answerOf<{ author: { handle: string }; drafted_by: { handle: string } }>(
      await client.callTool({ name: 'get_story', arguments: { slug: published.slug } }),
    );
    expect(story.author.handle).toBe('ivy');
    expect(story.drafted_by.handle).toBe('dana');
    const refused = refusalOf(
      await (await server.mcp(dana.token)).callTool({ name: 'publish_draft', arguments: { draft_id: drafted?.draft.id } }),
    );
    expect(refused.code).toBe('not_found');

    browser ??= await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl()}/s/${published.slug}`);
    expect(await page.locator('.meta .drafted-by').innerText()).toBe('drafted with help from @dana');
    expect(await page.locator('.meta .drafted-by a').getAttribute('href')).toBe('/a/dana');
    await page.close();
  });

  it('the claim page in Chromium shows the hostile note as text and runs nothing, with and without its CSP', async () => {
    browser ??= await launchChromium();
    for (const stripCsp of [false, true]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      if (stripCsp) {
        await page.route('**/claim/**', async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['content-security-policy'];
          await route.fulfill({ response, headers });
        });
      }
      await page.goto(drafted?.claim_url ?? '');
      expect(await page.locator('.invitee-note').innerText()).toBe(HOSTILE_NOTE);
      await page.locator('.invitee-note b, .invitee-note').first().hover();
      const link = page.getByText('click me');
      if ((await link.count()) > 0) await link.first().click();
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(dialogs).toBe(0);
      expect(await page.title()).not.toBe('pwned');
      await context.close();
    }
  });
});

describe('POST /v1/drafts named by the standard Idempotency-Key header alone', () => {
  const draftsOf = async () => (await server.app.state()).filter((item) => String(item.PK).startsWith('DRAFT#') && item.SK === 'META');
  const post = (key: string) =>
    server.fetch('/v1/drafts', {
      method: 'POST',
      headers: { Authorization: `Bearer ${dana.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ markdown: storyTitled('Drafted with only an Idempotency-Key'), invitee_note: 'For you.' }),
    });

  it('the header serves as the draft key: one draft, and the repeat answers the same draft and claim URL', async () => {
    const before = (await draftsOf()).length;
    const first = await post('0b9f6c1e-5a7d-4c1b-9e2f-7a3c5d8e1f20');
    expect(first.status).toBe(201);
    const again = await post('0b9f6c1e-5a7d-4c1b-9e2f-7a3c5d8e1f20');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [a, b] = [(await first.json()) as Draft, (await again.json()) as Draft];
    expect(b.draft.id).toBe(a.draft.id);
    expect(b.claim_url).toBe(a.claim_url);
    expect((await draftsOf()).length).toBe(before + 1);
  });

  it('a header that cannot be a draft key is refused as validation_failed naming the header, and nothing is written', async () => {
    const before = await draftsOf();
    const refused = await post('short');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: 'validation_failed',
      details: { fields: { 'Idempotency-Key': expect.any(String) } },
    });
    expect(await draftsOf()).toEqual(before);
  });
});
