// Against a real PDS on 127.0.0.1, counting posts with listRecords: a first publish posts
// exactly once, with the link card and facets as sent, and records the post's at-uri; nothing
// that publishes again — republish, the identical publish, an edit, an op_id replay, 16 parallel
// first publishes — makes a second post. Also: two announcers racing on one story send one
// createRecord (the claim's attribute_not_exists is what stops the second).
import { RichText } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { storyRecordKey } from '../../../integrations/bluesky/index.ts';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-announce-once', { newAccountHours: 0 });
const bsky = useBluesky();
const CREATE = 'com.atproto.repo.createRecord';

describe('a first publish announces the story exactly once', () => {
  it('posts once with the title, "by @author", the tags as hashtags, facets as detected and a link card; the story records the at-uri', async () => {
    // The author has an account on the PDS, so the mention resolves to a DID and stays.
    const writer = await bsky.pds().createAccount('writer');
    const author = { account: 'acct-writer', handle: writer.handle };
    await ensureAccount(app.ctx(), author);
    const announcer = bsky.announcer();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);

    const published = await publishStory(ctx, author, { markdown: storyTitled('Announced exactly once') });
    await idle();

    const posts = await bsky.postsFor(published.slug);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    const story = await getStory(app.ctx(), author, { slug: published.slug });
    expect(story.announce).toEqual({ state: 'posted', uri: post?.uri });
    expect(post?.uri).toBe(`at://${bsky.account().did}/app.bsky.feed.post/${storyRecordKey(published.slug, story.published_at)}`);

    const text = post?.value.text ?? '';
    expect(text).toBe(`Announced exactly once\nby @${writer.handle}\n${story.tags.map((tag) => `#${tag}`).join(' ')}`);
    // Facets as RichText.detectFacets makes them for that text, the mention resolved to the author's DID.
    const expected = new RichText({ text });
    await expected.detectFacets(new (await import('@atproto/api')).AtpAgent({ service: bsky.pds().url }));
    expect(post?.value.facets).toEqual(JSON.parse(JSON.stringify(expected.facets)));
    expect(post?.value.facets?.flatMap((facet) => facet.features)).toEqual([
      { $type: 'app.bsky.richtext.facet#mention', did: writer.did },
      ...story.tags.map((tag) => ({ $type: 'app.bsky.richtext.facet#tag', tag })),
    ]);
    expect(post?.value.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: `${BASE_URL}/s/${published.slug}`, title: 'Announced exactly once', description: story.summary },
    });
    // createdAt is the real posting time, not the publish time.
    expect(Date.parse(post?.value.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(story.published_at));
    expect(announcer.logs.some((line) => line.includes(`posted ${post?.uri}`))).toBe(true);
  });

  it('a mention that does not resolve is dropped, the rest of the post stays', async () => {
    const ghost = { account: 'acct-ghost', handle: 'ghost.test' };
    await ensureAccount(app.ctx(), ghost);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, ghost, { markdown: storyTitled('Nobody knows the ghost') });
    await idle();
    const [post, ...more] = await bsky.postsFor(slug);
    expect(more).toHaveLength(0);
    expect(post?.value.text).toContain('by @ghost.test');
    const features = post?.value.facets?.flatMap((facet) => facet.features) ?? [];
    expect(features.some((feature) => feature.$type === 'app.bsky.richtext.facet#mention')).toBe(false);
    expect(features.filter((feature) => feature.$type === 'app.bsky.richtext.facet#tag').length).toBeGreaterThan(0);
  });
});

describe('publishing again never posts again', () => {
  it('16 parallel first publishes, then a republish, the identical publish, an edit and an op_id replay: one post, one createRecord', async () => {
    const alice = caller('alice');
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const markdown = storyTitled('Sixteen publishes one post');
    const before = bsky.proxy().seen(CREATE);

    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(ctx, alice, { markdown })));
    await idle();
    const slug = answers[0]?.slug as string;
    expect(new Set(answers.map((answer) => answer.slug)).size).toBe(1);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    const posted = (await getStory(app.ctx(), alice, { slug })).announce;
    expect(posted.state).toBe('posted');

    await publishStory(ctx, alice, { markdown: storyTitled('Sixteen publishes one post', { extra: 'Republished.' }) });
    await publishStory(ctx, alice, { markdown: storyTitled('Sixteen publishes one post', { extra: 'Republished.' }) });
    await editStory(ctx, alice, { slug, markdown: storyTitled('Sixteen publishes one post', { extra: 'Edited.' }), kind: 'rephrase' });
    const withOp = { markdown: storyTitled('Sixteen publishes one post', { extra: 'With an op.' }), op_id: 'op-sixteen-1' };
    await publishStory(ctx, alice, withOp);
    const replay = await publishStory(ctx, alice, withOp);
    expect(replay.replayed).toBe(true);
    await idle();

    expect(await bsky.postsFor(slug)).toHaveLength(1);
    expect(bsky.proxy().seen(CREATE) - before).toBe(1);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual(posted);
  });

  it('two announcers racing on one story: the one that read before the other claimed is refused by the claim, and one createRecord reaches the PDS', async () => {
    const alice = caller('alice');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Two announcers one claim') });
    const announcer = bsky.announcer();
    const before = bsky.proxy().seen(CREATE);
    const held = bsky.proxy().hold(CREATE);
    let first: Promise<unknown> | undefined;
    // The second announcer reads META (nothing claimed yet); then the first claims and is posting
    // (held at the proxy); only then does the second try to claim.
    afterNextRead(
      app.ctx(),
      async () => {
        first = announceStory(app.ctx(), announcer, slug);
        await held.arrived;
      },
      'GetItem',
    );
    const second = await announceStory(app.ctx(), announcer, slug);
    expect(second.outcome).toBe('held_elsewhere');
    held.forward();
    expect(await first).toMatchObject({ outcome: 'posted' });
    expect(bsky.proxy().seen(CREATE) - before).toBe(1);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
  });
});
