// A slug held by another author's story is slug_taken (409) through MCP and /v1, whether the caller
// can see that story or not (private, hidden): the answer says to change the title, where a
// not_found left the caller no way forward (design.md#slugs-dates-images). Nothing is written; an explicit slug no
// story holds is still not_found. Real server on 127.0.0.1, the real MCP SDK client, DynamoDB Local.
import { beforeAll, describe, expect, it } from 'vitest';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';
import { type Surface, type WriteAnswer, writer } from './write-surface.ts';

const server = useLorebookServer('e2e-slug-taken');
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

const PRIVATE = 'Owner only private story';
const HIDDEN = 'Owner hid this story';
const PUBLIC = 'Owner public story';
let prober = '';
const slugs: Record<string, string> = {};

beforeAll(async () => {
  const owner = await server.token('slug-owner');
  prober = (await server.token('slug-prober')).token;
  const asOwner = await server.mcp(owner.token);
  for (const [title, visibility] of [
    [PRIVATE, 'private'],
    [HIDDEN, 'public'],
    [PUBLIC, 'public'],
  ] as const) {
    slugs[title] = answerOf<{ slug: string }>(
      await asOwner.callTool({ name: 'publish_story', arguments: { markdown: storyTitled(title, { visibility }) } }),
    ).slug;
  }
  await setVisibility(server.app.ctx(), { account: owner.account, handle: 'slug-owner' }, { slug: slugs[HIDDEN], hidden: true });
});

/** The answer with the slug itself taken out, so answers about two slugs compare whole. */
const shape = (answer: WriteAnswer, slug: string) => ({
  status: answer.status,
  body: JSON.parse(JSON.stringify(answer.body).replaceAll(slug, '<slug>')) as unknown,
});

describe.each(['mcp', 'http'] as Surface[])('publishing onto a slug held by a story the caller may not see (%s)', (surface) => {
  it.each([PRIVATE, HIDDEN])(
    '"%s": by title or by explicit slug, slug_taken saying to change the title, as for a visible story, and nothing written',
    async (title) => {
      const asProber = await writer(server, surface, prober);
      const slug = slugs[title] as string;
      const before = await observable();
      const byTitle = await asProber.write('publish_story', { markdown: storyTitled(title) });
      const bySlug = await asProber.write('publish_story', { markdown: storyTitled(title), slug });
      const visible = await asProber.write('publish_story', { markdown: storyTitled(PUBLIC) });
      expect(byTitle.body).toMatchObject({ code: 'slug_taken', retryable: false, details: { slug } });
      expect(String(byTitle.body.message)).toContain('change the title');
      if (surface === 'http') expect(byTitle.status).toBe(409);
      expect(shape(bySlug, slug)).toEqual(shape(byTitle, slug));
      // The same answer as for a story the caller can see: it tells no more than that the slug is held.
      expect(shape(byTitle, slug)).toEqual(shape(visible, slugs[PUBLIC] as string));
      expect(await observable()).toEqual(before);
    },
  );

  it('an explicit slug no story holds is still not_found, and nothing is written', async () => {
    const asProber = await writer(server, surface, prober);
    const unknownSlug = (slugs[PRIVATE] as string).replace(/-[a-z]+$/, '-nobody-wrote-this');
    const before = await observable();
    const unknown = await asProber.write('publish_story', { markdown: storyTitled('Nobody wrote this'), slug: unknownSlug });
    expect(unknown.body.code).toBe('not_found');
    if (surface === 'http') expect(unknown.status).toBe(404);
    expect(await observable()).toEqual(before);
  });

  it('a story the caller can see is still slug_taken, and nothing is written', async () => {
    const asProber = await writer(server, surface, prober);
    const before = await observable();
    const taken = await asProber.write('publish_story', { markdown: storyTitled(PUBLIC) });
    expect(taken.body.code).toBe('slug_taken');
    if (surface === 'http') expect(taken.status).toBe(409);
    expect(await observable()).toEqual(before);
  });
});
