// Publishing cannot tell which unseen slugs exist: through MCP and /v1, publishing onto another
// author's private or hidden story answers exactly what an unknown slug answers (not_found, 404,
// the same message but for the slug) and writes nothing; a story the caller can see is still
// slug_taken. Real server on 127.0.0.1, the real MCP SDK client, DynamoDB Local.
import { beforeAll, describe, expect, it } from 'vitest';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';
import { writer, type Surface, type WriteAnswer } from './write-surface.ts';

const server = useLorebookServer('e2e-slug-probing');
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

describe.each(['mcp', 'http'] as Surface[])('publishing onto a slug the caller may not see (%s)', (surface) => {
  it.each([PRIVATE, HIDDEN])(
    '"%s": by title or by explicit slug, the same answer as an unknown slug, and nothing written',
    async (title) => {
      const asProber = await writer(server, surface, prober);
      const slug = slugs[title] as string;
      const unknownSlug = slug.replace(/-[a-z]+$/, '-nobody-wrote-this');
      const before = await observable();
      const unknown = await asProber.write('publish_story', { markdown: storyTitled('Nobody wrote this'), slug: unknownSlug });
      const byTitle = await asProber.write('publish_story', { markdown: storyTitled(title) });
      const bySlug = await asProber.write('publish_story', { markdown: storyTitled(title), slug });
      expect(unknown.body.code).toBe('not_found');
      if (surface === 'http') expect(unknown.status).toBe(404);
      expect(shape(byTitle, slug)).toEqual(shape(unknown, unknownSlug));
      expect(shape(bySlug, slug)).toEqual(shape(unknown, unknownSlug));
      expect(await observable()).toEqual(before);
    },
  );

  it('a story the caller can see is still slug_taken, and nothing is written', async () => {
    const asProber = await writer(server, surface, prober);
    const before = await observable();
    const taken = await asProber.write('publish_story', { markdown: storyTitled(PUBLIC) });
    expect(taken.body.code).toBe('slug_taken');
    if (surface === 'http') expect(taken.status).toBe(409);
    expect(await observable()).toEqual(before);
  });
});
