// At most one post is live, and only while the story is listed (docs/design.md#write-rules, set_visibility):
// against the real PDS, counting posts with listRecords. Hiding (or an edit to private) deletes
// the post at the story's record key; unhiding announces it again at that same key.
import { describe, expect, it } from 'vitest';
import { storyRecordKey } from '../../../integrations/bluesky/index.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { TEST_ANNOUNCE_SETTINGS, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-hide-unhide');
const bsky = useBluesky();
const alice = caller('alice');
const CREATE = 'com.atproto.repo.createRecord';
const DELETE = 'com.atproto.repo.deleteRecord';

async function meta(slug: string): Promise<Record<string, unknown>> {
  return (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META') as Record<string, unknown>;
}

describe('hide and unhide', () => {
  it('hiding deletes the post; unhiding posts it again at the same record key; never two live', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Hidden and shown again') });
    await idle();
    const [first, ...more] = await bsky.postsFor(slug);
    expect(more).toHaveLength(0);

    await setVisibility(ctx, alice, { slug, hidden: true });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'off' });
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');

    await setVisibility(ctx, alice, { slug, hidden: false });
    await idle();
    const [again, ...extra] = await bsky.postsFor(slug);
    expect(extra).toHaveLength(0);
    expect(again?.uri).toBe(first?.uri);
    expect(again?.uri.endsWith(`/${storyRecordKey(slug, String((await meta(slug)).published_at))}`)).toBe(true);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: first?.uri });
  });

  it('a hide while the post is in flight: the post is recorded, then deleted; the story ends hidden with no post', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const held = bsky.proxy().hold(CREATE);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Hidden while posting') });
    await held.arrived;
    await setVisibility(ctx, alice, { slug, hidden: true });
    held.forward();
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'off' });
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
  });

  it('an edit that makes a posted story private deletes the post; making it public again re-announces it', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Made private after posting') });
    await idle();
    const [first] = await bsky.postsFor(slug);
    await editStory(ctx, alice, { slug, markdown: storyTitled('Made private after posting', { visibility: 'private' }), kind: 'rephrase' });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    await editStory(ctx, alice, {
      slug,
      markdown: storyTitled('Made private after posting', { extra: 'Public again.' }),
      kind: 'addition',
    });
    await idle();
    const posts = await bsky.postsFor(slug);
    expect(posts.map((post) => post.uri)).toEqual([first?.uri]);
  });

  it('the PDS fails the deletion: the post stays recorded, and a later sweep deletes it', async () => {
    const announcer = bsky.announcer();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Deletion retried later') });
    await idle();
    const [post] = await bsky.postsFor(slug);
    bsky.proxy().inject(DELETE, { kind: 'status', status: 503 });
    await setVisibility(ctx, alice, { slug, hidden: true });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    expect(await meta(slug)).toMatchObject({
      bsky_uri: post?.uri,
      GSI3PK: 'ANNOUNCE',
      last_error: expect.stringMatching(/failed with 503/),
    });

    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    const report = await sweepAnnouncements(app.ctx(), announcer);
    expect(report.results.find((result) => result.slug === slug)).toMatchObject({ outcome: 'deleted', uri: post?.uri });
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect(await meta(slug)).not.toHaveProperty('GSI3PK');
  });

  it('hide and unhide in quick succession, each starting its own attempt: afterwards exactly one post, at the story’s key', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Flip flopping visibility') });
    for (let flip = 0; flip < 6; flip += 1) await setVisibility(ctx, alice, { slug, hidden: flip % 2 === 0 });
    await idle();
    // Whatever the attempts left owed, the sweeper finishes.
    for (let round = 0; round < 3; round += 1) {
      app.advance(TEST_ANNOUNCE_SETTINGS.staleClaimMs + 1);
      await sweepAnnouncements(app.ctx(), bsky.announcer());
    }
    const posts = await bsky.postsFor(slug);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.uri.endsWith(`/${storyRecordKey(slug, String((await meta(slug)).published_at))}`)).toBe(true);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
  });
});
