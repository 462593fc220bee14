import type { AppBskyRichtextFacet, RichText } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import {
  hashtag,
  linksOf,
  MAX_POST_GRAPHEMES,
  postRecord,
  postText,
  withoutUnresolvedMentions,
} from '../../../../integrations/bluesky/post-record.ts';
import type { StoryPost } from '../../../../src/outbox/announce/port.ts';

const graphemes = (text: string): number => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;

const post: StoryPost = {
  slug: '2026-10-14-my-counter-doubled',
  publishedAt: '2026-10-14T10:00:00.000Z',
  title: 'My counter doubled',
  summary: 'Two agents reported at once.',
  authorHandle: 'alice.test',
  tags: ['dynamodb', 'idempotency'],
  url: 'https://lorebook.test/s/2026-10-14-my-counter-doubled',
};

describe('the post text: title, "by @author", tags as hashtags', () => {
  it('is three lines', () => {
    expect(postText(post)).toBe('My counter doubled\nby @alice.test\n#dynamodb #idempotency');
  });

  it('keeps kebab-case tags whole and drops characters a hashtag cannot hold', () => {
    expect(hashtag('dynamodb-local')).toBe('#dynamodb-local');
    expect(hashtag('c++ tips')).toBe('#c-tips');
  });

  it('never passes 300 graphemes: tags go first, then the title is cut with an ellipsis; the author stays', () => {
    const long = { ...post, title: '🧪'.repeat(140), authorHandle: `${'a'.repeat(200)}.test`, tags: ['one', 'two', 'three'] };
    const text = postText(long);
    expect(graphemes(text)).toBeLessThanOrEqual(MAX_POST_GRAPHEMES);
    expect(text).toContain(`by @${long.authorHandle}`);
    expect(text).not.toContain('#one');
    expect(text.split('\n')[0]?.endsWith('…')).toBe(true);

    const manyTags = { ...post, title: 'x'.repeat(140), tags: Array.from({ length: 6 }, (_, i) => `tag-number-${i}-${'y'.repeat(20)}`) };
    const trimmed = postText(manyTags);
    expect(graphemes(trimmed)).toBeLessThanOrEqual(MAX_POST_GRAPHEMES);
    expect(trimmed.startsWith('x'.repeat(140))).toBe(true);
    expect(trimmed).toContain('#tag-number-0');
    expect(trimmed).not.toContain('#tag-number-5');
  });
});

describe('facets and the link card', () => {
  const mention = (did: string): AppBskyRichtextFacet.Main => ({
    index: { byteStart: 0, byteEnd: 5 },
    features: [{ $type: 'app.bsky.richtext.facet#mention', did }],
  });
  const tag: AppBskyRichtextFacet.Main = {
    index: { byteStart: 6, byteEnd: 9 },
    features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'x' }],
  };

  it('a mention without a DID is dropped (a PDS refuses it); resolved mentions and tags stay', () => {
    expect(withoutUnresolvedMentions([mention(''), tag, mention('did:plc:abc')])).toEqual([tag, mention('did:plc:abc')]);
    expect(withoutUnresolvedMentions(undefined)).toEqual([]);
  });

  it('builds the record from detected facets, an external embed to the story page and the posting time', async () => {
    const record = await postRecord(
      post,
      { detect: async (text: RichText) => text.detectFacetsWithoutResolution() },
      '2026-10-14T10:05:00.000Z',
    );
    expect(record).toEqual({
      $type: 'app.bsky.feed.post',
      text: 'My counter doubled\nby @alice.test\n#dynamodb #idempotency',
      // detectFacetsWithoutResolution leaves the mention's DID as the handle.
      facets: expect.arrayContaining([expect.objectContaining({ features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'dynamodb' }] })]),
      embed: {
        $type: 'app.bsky.embed.external',
        external: { uri: post.url, title: post.title, description: post.summary },
      },
      createdAt: '2026-10-14T10:05:00.000Z',
    });
    expect(linksOf(record)).toEqual([post.url]);
  });

  it('a mention that does not resolve leaves no facet behind', async () => {
    const record = await postRecord(
      post,
      {
        detect: async (text: RichText) => {
          text.detectFacetsWithoutResolution();
          for (const facet of text.facets ?? []) for (const feature of facet.features) if ('did' in feature) feature.did = '';
        },
      },
      '2026-10-14T10:05:00.000Z',
    );
    expect(record.facets?.flatMap((facet) => facet.features).map((feature) => feature.$type)).toEqual([
      'app.bsky.richtext.facet#tag',
      'app.bsky.richtext.facet#tag',
    ]);
  });

  it('a long summary is cut to 300 graphemes for the card', async () => {
    const record = await postRecord({ ...post, summary: 'é'.repeat(400) }, { detect: async () => {} }, '2026-10-14T10:05:00.000Z');
    const description = (record.embed as { external: { description: string } }).external.description;
    expect(graphemes(description)).toBe(300);
    expect(description.endsWith('…')).toBe(true);
  });

  it('linksOf finds link-card and link-facet URLs, and nothing in a record without them', () => {
    expect(linksOf({ facets: [{ features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://a.test' }] }] })).toEqual([
      'https://a.test',
    ]);
    expect(linksOf({ text: 'hello' })).toEqual([]);
  });
});
