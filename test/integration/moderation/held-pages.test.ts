// What a story held for review shows over HTTP (docs/moderation.md): its page and .md say it is
// held, without its title or text; it is gone from the feed, the Atom feed and /v1 for everyone
// but its author, who sees why in get_story's `moderation`. A story held because its author is
// banned says so, not that readers flagged it (design.md#bans).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext, Caller } from '../../../src/app/context/app-context.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { banAccount } from '../../../src/app/moderation/ban/account.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { ATOM_PATH } from '../../../src/http/pages/layout.ts';
import { createAccount } from '../../../src/store/identity/account/items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('moderation-held-pages', { config: { accountDeletionGraceSeconds: 0 } });
const TITLE = 'Buy cheap watches here now';
const readers: Caller[] = ['carol', 'dave', 'erin'].map((name) => ({ account: `acct-${name}`, handle: `${name}.test` }));
let slug = '';
let authorToken = '';

/** Readers whose accounts are two days old: their flags count. */
async function establishedReaders(ctx: AppContext): Promise<void> {
  const created_at = new Date(ctx.store.now() - 2 * 24 * 60 * 60 * 1000).toISOString();
  await writeAtomically(
    ctx.store,
    readers.map((reader) => createAccount({ id: reader.account, handle: reader.handle, created_at })),
  );
}

beforeAll(async () => {
  const ctx = server.app.ctx();
  const author = await server.token('alice');
  authorToken = author.token;
  slug = (await publishStory(ctx, { account: author.account, handle: 'alice' }, { markdown: storyTitled(TITLE) })).slug;
  await establishedReaders(ctx);
  for (const reader of readers) await flagStory(ctx, reader, { slug, reason: 'spam' });
});

describe('a story held for review', () => {
  it('its page and .md answer 410 "held for review", without its title', async () => {
    for (const path of [`/s/${slug}`, `/s/${slug}.md`]) {
      const response = await server.fetch(path);
      const body = await response.text();
      expect(response.status, path).toBe(410);
      expect(body, path).toContain('This story is held for review after readers flagged it.');
      expect(body, path).not.toContain(TITLE);
    }
  });

  it('is not_found over /v1 and gone from the feed and the Atom feed for everyone but its author, who sees moderation', async () => {
    expect((await server.fetch(`/v1/stories/${slug}`)).status).toBe(404);
    expect(await (await server.fetch('/v1/stories')).text()).not.toContain(slug);
    expect(await (await server.fetch(ATOM_PATH)).text()).not.toContain(slug);
    const own = await server.fetch(`/v1/stories/${slug}`, { headers: { Authorization: `Bearer ${authorToken}` } });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { moderation: unknown }).moderation).toMatchObject({ state: 'quarantined', reasons: ['spam'] });
  });
});

describe('a story held because its author is banned', () => {
  const BANNED_TITLE = 'Free tokens for everyone who asks';

  it("its page and .md say the author's account is suspended, not that readers flagged it; get_story's moderation names the ban", async () => {
    const ctx = server.app.ctx();
    const mallory = await server.token('mallory');
    const author = { account: mallory.account, handle: 'mallory' };
    const held = (await publishStory(ctx, author, { markdown: storyTitled(BANNED_TITLE) })).slug;
    await banAccount(ctx, { target: mallory.account, reason: 'Spam run.', actor: 'operator:test', op_id: 'held-pages-ban' });
    for (const path of [`/s/${held}`, `/s/${held}.md`]) {
      const response = await server.fetch(path);
      const body = await response.text();
      expect(response.status, path).toBe(410);
      expect(body, path).toContain('held for review because its author');
      expect(body, path).toContain('account is suspended.');
      expect(body, path).not.toContain('readers flagged');
      expect(body, path).not.toContain(BANNED_TITLE);
    }
    expect((await getStory(ctx, author, { slug: held })).moderation).toMatchObject({
      state: 'quarantined',
      by: 'ban',
      why: "This story is held for review because its author's account is suspended.",
      reasons: [],
    });
  });

  it("a story readers' flags held still says readers flagged it, with moderation.by readers", async () => {
    const ctx = server.app.ctx();
    expect((await getStory(ctx, { account: (await server.token('alice')).account, handle: 'alice' }, { slug })).moderation).toMatchObject({
      by: 'readers',
      why: 'This story is held for review after readers flagged it.',
    });
  });
});
