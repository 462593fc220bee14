// The Bluesky link card's thumbnail, against a real PDS on 127.0.0.1: a story whose `image:` is one
// of lorebook's own images gets it as the card's thumb, read from lorebook's image store; a story
// whose image is anywhere else is posted with a text card, and that URL is never fetched.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { pictureOf } from '../../helpers/images.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-announce-thumb', { newAccountHours: 0 });
const bsky = useBluesky();
const author = caller('thumb-author');

/** A web server that would serve any image, counting every request it gets. */
let outside: Server;
let outsideRequests = 0;
beforeAll(async () => {
  await ensureAccount(app.ctx(), author);
  outside = createServer((_request, response) => {
    outsideRequests += 1;
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => outside.close(() => resolve())));

const withImage = (title: string, image: string) =>
  storyTitled(title).replace('status: n/a\n', `status: n/a\nimage: ${image}\nimage_alt: A picture\n`);

async function announced(markdown: string) {
  const announcer = bsky.announcer();
  const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
  const { slug } = await publishStory(ctx, author, { markdown });
  await idle();
  const posts = await bsky.postsFor(slug);
  expect(posts).toHaveLength(1);
  return { embed: posts[0]?.value.embed, logs: announcer.logs };
}

describe("the link card's thumbnail comes only from lorebook's own image store", () => {
  it("a story whose image is lorebook's own (by path or on the base URL) gets it as the card's thumb", async () => {
    const image = await storeImage(app.ctx(), author, { bytes: await pictureOf(400), type: 'image/png', opId: undefined });
    const byPath = await announced(withImage('Thumb by path', new URL(image.url).pathname));
    expect(byPath.embed?.external.thumb).toMatchObject({ mimeType: 'image/png', size: image.bytes });
    const onBase = await announced(withImage('Thumb on the base URL', `${BASE_URL}${new URL(image.url).pathname}`));
    expect(onBase.embed?.external.thumb).toMatchObject({ mimeType: 'image/png', size: image.bytes });
  });

  it('a story whose image is on another site is posted with a text card, and the image URL is never fetched', async () => {
    const address = outside.address() as AddressInfo;
    const { embed } = await announced(withImage('Thumb elsewhere', `http://127.0.0.1:${address.port}/i/${'a'.repeat(64)}.png`));
    expect(embed?.external.thumb).toBeUndefined();
    expect(outsideRequests).toBe(0);
  });

  it('an image path lorebook never stored is no thumb: the story is still posted, and the log says why', async () => {
    const { embed, logs } = await announced(withImage('Thumb never uploaded', `/i/${'b'.repeat(64)}.webp`));
    expect(embed?.external.thumb).toBeUndefined();
    expect(logs.some((line) => line.includes('no link-card thumbnail') && line.includes('not stored'))).toBe(true);
  });
});
