// The account page's redact form and export link, signed in with a web session: the form is
// pre-filled with the current text, a forged form writes nothing, a redaction strips every earlier
// revision, and the download holds the account's stories.
import { beforeAll, describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { get, type Person, post, signedInPerson } from '../../helpers/oauth/oauth-flow.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('e2e-account-redact');
const base = (): string => server.baseUrl();
const SECRET = 'AKIAREDACTFORM1234567';
const title = 'Leaked on the account page';

let alice: Person;
let bob: Person;
let slug: string;
let bobsSlug: string;
beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
  bob = await signedInPerson(server.app.ctx(), 'bob');
  const author = { account: alice.did, handle: alice.handle };
  ({ slug } = await publishStory(server.app.ctx(), author, { markdown: storyTitled(title, { extra: `Key ${SECRET}.` }) }));
  ({ slug: bobsSlug } = await publishStory(
    server.app.ctx(),
    { account: bob.did, handle: bob.handle },
    { markdown: storyTitled('Bob on his page') },
  ));
  await editStory(server.app.ctx(), author, { slug, markdown: storyTitled(title, { extra: `Key ${SECRET}, again.` }), kind: 'rephrase' });
});

const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
const itemsNaming = async (text: string) => (await server.app.allItems()).filter((item) => JSON.stringify(item).includes(text));

describe('the account page: redact and export', () => {
  it('lists the story with a redact link, and the form holds the current text', async () => {
    const page = await get(base(), '/account', alice.cookie);
    expect(page.text).toContain(`/account/redact?slug=${slug}`);
    expect(page.text).toContain('/account/export');
    const form = await get(base(), `/account/redact?slug=${slug}`, alice.cookie);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`Key ${SECRET}, again.`);
    expect(form.text).toContain('name="base_revision" value="2"');
    // Not bob's to redact.
    expect((await get(base(), `/account/redact?slug=${slug}`, bob.cookie)).status).toBeGreaterThanOrEqual(403);
  });

  it('a form without the page CSRF token, or from another session, writes nothing', async () => {
    const before = await server.app.state();
    const markdown = storyTitled(title, { extra: 'Key removed.' });
    const forged = await post(
      base(),
      '/account/redact',
      { csrf: 'forged', slug, base_revision: '2', markdown },
      { Cookie: alice.cookie, Origin: base() },
    );
    expect(forged.status).toBe(403);
    const bobsCsrf = csrfOf((await get(base(), `/account/redact?slug=${bobsSlug}`, bob.cookie)).text);
    expect(bobsCsrf).not.toBe('');
    const crossed = await post(
      base(),
      '/account/redact',
      { csrf: bobsCsrf, slug, base_revision: '2', markdown },
      { Cookie: alice.cookie, Origin: base() },
    );
    expect(crossed.status).toBe(403);
    expect(await server.app.state()).toEqual(before);
  });

  it('a stale base revision shows the form again with revision_conflict; the redaction removes the secret from every item', async () => {
    const csrf = csrfOf((await get(base(), `/account/redact?slug=${slug}`, alice.cookie)).text);
    const markdown = storyTitled(title, { extra: 'Key removed.' });
    const stale = await post(
      base(),
      '/account/redact',
      { csrf, slug, base_revision: '1', markdown },
      { Cookie: alice.cookie, Origin: base() },
    );
    expect(stale.status).toBe(422);
    expect(stale.text).toContain('revision 2');
    const done = await post(
      base(),
      '/account/redact',
      { csrf, slug, base_revision: '2', markdown },
      { Cookie: alice.cookie, Origin: base() },
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/account?done=redacted');
    expect(await itemsNaming(SECRET)).toEqual([]);
  });

  it('the export link downloads the account as JSON', async () => {
    const answer = await get(base(), '/account/export', alice.cookie);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain('attachment');
    const doc = JSON.parse(answer.text);
    expect(doc.account.id).toBe(alice.did);
    expect(doc.stories.map((story: { slug: string }) => story.slug)).toEqual([slug]);
    expect((await get(base(), '/account/export')).status).toBe(302);
  });
});
