// What a story held for review shows over HTTP (docs/moderation.md): its page and .md say it is
// held, without its title or text; it is gone from the feed, the Atom feed and /v1 for everyone
// but its author, who sees why in get_story's `moderation`.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext, Caller } from '../../../src/app/app-context.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { ATOM_PATH } from '../../../src/http/pages/layout.ts';
import { createAccount } from '../../../src/store/identity/account-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('moderation-held-pages');
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
