// integrations/bluesky against the real PDS: one sign-in reused for every call, an expired
// access token refreshed by the session, the link card's optional thumbnail uploaded as a blob,
// find and remove at the story's record key, and every call bounded by its timeout.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storyRecordKey } from '../../../integrations/bluesky/index.ts';
import type { StoryPost } from '../../../src/outbox/announce/port.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';

const bsky = useBluesky();
const SIGN_IN = 'com.atproto.server.createSession';
const REFRESH = 'com.atproto.server.refreshSession';
const CREATE = 'com.atproto.repo.createRecord';

function story(name: string, thumb?: StoryPost['thumb']): StoryPost {
  const slug = `2026-10-14-${name}`;
  return {
    slug,
    publishedAt: '2026-10-14T10:00:00.000Z',
    title: `Client test ${name}`,
    summary: 'What the client does.',
    authorHandle: 'alice.test',
    tags: ['atproto'],
    url: `${BASE_URL}/s/${slug}`,
    ...(thumb === undefined ? {} : { thumb }),
  };
}

/** A 1×1 PNG, built here so the test ships no binary file. */
function tinyPng(): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.from([0, 255, 128, 0]))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

describe('the session', () => {
  it('signs in once and reuses the session for every later call', async () => {
    const client = bsky.client();
    const before = bsky.proxy().seen(SIGN_IN);
    await client.create(story('reuse-one'));
    await Promise.all([client.create(story('reuse-two')), client.find(story('reuse-one')), client.find(story('reuse-three'))]);
    expect(bsky.proxy().seen(SIGN_IN) - before).toBe(1);
  });

  it('an expired access token is refreshed and the call goes through, without signing in again', async () => {
    const client = bsky.client();
    await client.did();
    // Access tokens carry their issue time in seconds: a refresh within the same second would
    // mint the identical token, which the session (rightly) does not count as refreshed.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const signIns = bsky.proxy().seen(SIGN_IN);
    const refreshes = bsky.proxy().seen(REFRESH);
    bsky.proxy().inject(CREATE, { kind: 'status', status: 400, error: 'ExpiredToken' });
    const { uri } = await client.create(story('after-refresh'));
    expect(uri).toContain(storyRecordKey('2026-10-14-after-refresh', '2026-10-14T10:00:00.000Z'));
    expect(bsky.proxy().seen(REFRESH) - refreshes).toBe(1);
    expect(bsky.proxy().seen(SIGN_IN) - signIns).toBe(0);
  });

  it('tokens refused even after a refresh: that attempt fails retryably, and the next one signs in again', async () => {
    const client = bsky.client();
    await client.did();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const signIns = bsky.proxy().seen(SIGN_IN);
    // The first refusal makes the session refresh and retry; the retry is refused too.
    bsky.proxy().inject(CREATE, { kind: 'status', status: 401, error: 'AuthenticationRequired' }, 2);
    await expect(client.create(story('refused-session'))).rejects.toMatchObject({
      kind: 'server',
      message: expect.stringMatching(/signs in again/),
    });
    expect(bsky.proxy().seen(SIGN_IN) - signIns).toBe(0);
    await client.create(story('refused-session'));
    expect(bsky.proxy().seen(SIGN_IN) - signIns).toBe(1);
    expect(await bsky.postsFor('2026-10-14-refused-session')).toHaveLength(1);
  });

  it('a sign-in that hangs ends at the request timeout', async () => {
    const client = bsky.client({ requestTimeoutMs: 300 });
    bsky.proxy().inject(SIGN_IN, { kind: 'hang' });
    await expect(client.create(story('hung-sign-in'))).rejects.toMatchObject({ kind: 'timeout' });
  });
});

describe('posts at the record key', () => {
  it('uploads the optional thumbnail as a blob and puts it on the link card', async () => {
    const client = bsky.client();
    const post = story('with-thumb', { data: tinyPng(), mimeType: 'image/png' });
    await client.create(post);
    const [record] = await bsky.postsFor(post.slug);
    expect(record?.value.embed?.external.thumb).toMatchObject({ mimeType: 'image/png', size: tinyPng().length });
  });

  it('find answers the record and its links, or nothing; remove deletes it and a second remove is fine', async () => {
    const client = bsky.client();
    const post = story('find-and-remove');
    expect(await client.find(post)).toBeUndefined();
    const { uri } = await client.create(post);
    expect(await client.find(post)).toEqual({ uri, links: [post.url] });
    // A second create at the same key is refused by the PDS (500 "already a value at key"): never a second post.
    await expect(client.create(post)).rejects.toMatchObject({ kind: 'server' });
    expect(await bsky.postsFor(post.slug)).toHaveLength(1);
    await client.remove(post);
    await client.remove(post);
    expect(await client.find(post)).toBeUndefined();
    expect(await bsky.postsFor(post.slug)).toHaveLength(0);
  });
});
