// The account page's "Delete my account" form (design.md#account-deletion), signed in with a web session as a
// person is after Bluesky sign-in: a forged form and a mistyped handle delete nothing; the right
// handle answers the "being deleted" page, after which the session, the bearer token (on /v1 and
// /mcp) and, once the deletion steps ran, the story page are gone. The pages run no script and
// escape a hostile handle and title.
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { startWebSession, WEB_SESSION_COOKIE } from '../../../src/app/sign-in/web-session.ts';
import { mintToken, tokenId } from '../../../src/auth/token-secret.ts';
import { createTokenItems } from '../../../src/store/identity/token-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { callListNotifications, get, type Person, post, signedInPerson } from '../../helpers/oauth/oauth-flow.ts';
import { storyTitled } from '../../helpers/stories.ts';

// The finish waits for no grace here: no write races the deletion.
const server = useLorebookServer('e2e-account-delete-form', { config: { accountDeletionGraceSeconds: 0 } });
const base = (): string => server.baseUrl();
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

const HOSTILE_TITLE = `Fixed it <script>alert("title")</script> & <img src=x onerror=alert(1)>`;

let alice: Person;
let aliceToken: string;
let aliceStoryUrl: string;

/** A token like the device flow or an admin issues: bound to the account, no resource. */
async function plainToken(person: Person): Promise<string> {
  const token = mintToken();
  const now = server.app.ctx().store.now();
  await writeAtomically(
    server.app.ctx().store,
    createTokenItems({
      token_hash: tokenId(token),
      account: person.did,
      client: 'e2e-delete-form',
      created_at: new Date(now).toISOString(),
      expires_at: epochSeconds(now) + 3600,
    }),
  );
  return token;
}

beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
  aliceToken = await plainToken(alice);
  ({ url: aliceStoryUrl } = await publishStory(
    server.app.ctx(),
    { account: alice.did, handle: alice.handle },
    { markdown: storyTitled(HOSTILE_TITLE) },
  ));
});

const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
const deleteForm = (person: Person, form: Record<string, string>) =>
  post(base(), '/account/delete', form, { Cookie: person.cookie, Origin: base() });
const v1Notifications = (token: string) => server.fetch('/v1/notifications', { headers: { Authorization: `Bearer ${token}` } });

/** No script can run: no script element, no inline handler, and a CSP that allows none. */
function expectNoScript(answer: { text: string; headers: Headers }): void {
  expect(answer.text).not.toMatch(/<script/i);
  // Inside a tag: the escaped hostile text itself may read "onerror=" as plain text.
  expect(answer.text).not.toMatch(/<[a-z][^>]*\son\w+\s*=/i);
  expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(answer.headers.get('content-security-policy')).not.toContain('script-src');
}

describe('the account page: delete my account', () => {
  it('shows the delete form, with the CSRF token and a field to type the handle, and runs no script', async () => {
    const page = await get(base(), '/account', alice.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form[^>]+action="\/account\/delete"/);
    expect(page.text).toContain('name="confirm"');
    expect(csrfOf(page.text)).not.toBe('');
    expectNoScript(page);
  });

  it('escapes a hostile story title on the account page', async () => {
    const page = await get(base(), '/account', alice.cookie);
    expect(page.text).toContain('&lt;script&gt;');
    expect(page.text).not.toContain('<img src=x');
  });

  it('a form with a forged or missing CSRF token is 403 and deletes nothing', async () => {
    const before = await observable();
    expect((await deleteForm(alice, { csrf: 'forged', confirm: alice.handle })).status).toBe(403);
    expect((await deleteForm(alice, { confirm: alice.handle })).status).toBe(403);
    expect(await observable()).toEqual(before);
  });

  it('a mistyped handle is sent back with the "mistyped" notice and deletes nothing', async () => {
    const csrf = csrfOf((await get(base(), '/account', alice.cookie)).text);
    const before = await observable();
    const mistyped = await deleteForm(alice, { csrf, confirm: 'alice.tset' });
    expect(mistyped.status).toBe(303);
    expect(mistyped.headers.get('location')).toBe('/account?done=mistyped');
    expect(await observable()).toEqual(before);
    const notice = await get(base(), '/account?done=mistyped', alice.cookie);
    expect(notice.text).toContain('is not your handle: nothing was deleted');
  });

  it('the right handle answers the "being deleted" page; then the session, the token on /v1 and /mcp, and the story page are gone', async () => {
    expect((await v1Notifications(aliceToken)).status).toBe(200);
    expect((await callListNotifications(base(), aliceToken)).status).toBe(200);
    expect((await fetch(aliceStoryUrl)).status).toBe(200);

    const csrf = csrfOf((await get(base(), '/account', alice.cookie)).text);
    const deleted = await deleteForm(alice, { csrf, confirm: ` ${alice.handle} ` });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toContain(`@${alice.handle} is being deleted`);
    expectNoScript(deleted);

    const again = await get(base(), '/account', alice.cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toMatch(/^\/auth\/login\?/);
    expect((await v1Notifications(aliceToken)).status).toBe(401);
    expect((await callListNotifications(base(), aliceToken)).status).toBe(401);

    expect(await deleteAccountSteps(server.app.ctx(), alice.did, 10_000)).toMatchObject({ finished: true });
    expect((await fetch(aliceStoryUrl)).status).toBe(410);
  });

  it('escapes a hostile handle on the account page and on the "being deleted" page', async () => {
    const did = 'did:plc:hostilehandle000000000';
    const handle = 'x"><img src=x onerror=alert(1)>.test';
    await recordBlueskySignIn(server.app.ctx(), { did, handle });
    const session = await startWebSession(server.app.ctx(), did);
    const mallory: Person = { did, handle, cookie: `${WEB_SESSION_COOKIE}=${session.cookieValue}` };
    const page = await get(base(), '/account', mallory.cookie);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expectNoScript(page);
    const deleted = await deleteForm(mallory, { csrf: csrfOf(page.text), confirm: handle });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toContain('is being deleted');
    expect(deleted.text).not.toContain('<img src=x');
    expectNoScript(deleted);
  });
});
