// A hold takes the story off Bluesky exactly once, and an operator's restore puts it back at the
// same record key (docs/moderation.md): against the real test PDS, counting deleteRecord calls at
// the proxy and posts with listRecords.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { restoreStory } from '../../../src/app/moderation/restore-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('quarantine-bluesky');
const bsky = useBluesky();
const alice = caller('alice');
const readers = [caller('carol'), caller('dave'), caller('erin')];
const DELETE = 'com.atproto.repo.deleteRecord';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('three established readers flag one story, 16 times each, all at once', () => {
  it('the story is held once: one post deletion on the PDS, one notification to the author, out of get_story for everyone else', async () => {
    for (const reader of readers) await ensureAccount(app.ctx(), reader);
    app.advance(DAY_MS + 1);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Flagged by three readers at once') });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(1);

    const flags = readers.flatMap((reader) => Array.from({ length: 16 }, () => flagStory(ctx, reader, { slug, reason: 'spam' })));
    const answers = await Promise.all(flags);
    await idle();

    for (const answer of answers) expect(answer).toEqual({ slug, reason: 'spam', counted: true });
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect(bsky.proxy().forwarded(DELETE)).toBe(1);
    const notices = (await storedNotifications(app, { account: alice.account, story: slug })).filter((n) => n.kind === 'moderation');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.actor).toBe('lorebook');
    const meta = (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
    expect(meta).toMatchObject({ hidden: true, flag_count: 3, moderation: { state: 'quarantined', reasons: ['spam'], flags: 3 } });
    expect((await refusal(getStory(app.ctx(), readers[0], { slug }))).code).toBe('not_found');
    expect((await getStory(app.ctx(), alice, { slug })).moderation).toMatchObject({ state: 'quarantined', reasons: ['spam'] });
  });
});

describe('moderate restore of a held story', () => {
  it('lists it again and posts it again at the same record key, once, however many restores run at once', async () => {
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Held, then restored') });
    await idle();
    const [before] = await bsky.postsFor(slug);
    expect(before).toBeDefined();
    for (const reader of readers) await flagStory(ctx, reader, { slug, reason: 'spam' });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(0);

    const restores = Array.from({ length: 16 }, (_, run) =>
      restoreStory(ctx, { slug, reason: 'Reviewed: a real story.', actor: 'operator:ops', op_id: `op-restore-${run}` }),
    );
    expect((await Promise.all(restores)).filter((answer) => answer.changed)).toHaveLength(1);
    await idle();

    const after = await bsky.postsFor(slug);
    expect(after).toHaveLength(1);
    const recordKey = (uri: string | undefined) => uri?.split('/').pop();
    expect(recordKey(after[0]?.uri)).toBe(recordKey(before?.uri));
    expect((await getStory(app.ctx(), readers[0], { slug })).announce).toEqual({ state: 'posted', uri: after[0]?.uri });
  });
});
