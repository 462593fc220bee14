// A new account's story is not posted to the test PDS while its announcement is held (design.md#new-accounts):
// not by the attempt after the publish, not by the announcer asked directly. Each release — an
// operator's approval (delivered twice, 16 times at once, replayed by op_id), an established
// account's reproduction, the window passing — posts it exactly once.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { approveHeldAnnouncement } from '../../../src/app/moderation/approve-held.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-new-account-hold', { newAccountStoriesPerDay: 10 });
const bsky = useBluesky();
const CREATE = 'com.atproto.repo.createRecord';
const HOUR_MS = 60 * 60 * 1000;
const newcomer = caller('newcomer');
const veteran = caller('veteran');

const auditRecords = async (slug: string) =>
  (await app.state()).filter((item) => item.PK === 'MODLOG' || (item.PK === `STORY#${slug}` && String(item.SK).startsWith('MODLOG#')));

describe('a new account’s story waits before it is announced', () => {
  it('held: not posted after the publish nor when the announcer is asked; the author sees held new_account, others pending', async () => {
    await ensureAccount(app.ctx(), newcomer);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, newcomer, { markdown: storyTitled('Held until someone vouches') });
    await idle();
    expect(await announceStory(app.ctx(), bsky.announcer(), slug, { ignoreSchedule: true })).toMatchObject({ outcome: 'not_due' });
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect((await getStory(app.ctx(), newcomer, { slug })).announce).toEqual({
      state: 'held',
      reason: 'new_account',
      until: expect.any(String),
    });
    expect((await getStory(app.ctx(), veteran, { slug })).announce).toEqual({ state: 'pending' });
  });

  it('an operator approves it twice, 16 times at once and by op_id replay: one release, one audit record pair, one post', async () => {
    await ensureAccount(app.ctx(), newcomer);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const { slug } = await publishStory(ctx, newcomer, { markdown: storyTitled('Approved by the operator') });
    await idle();
    const before = bsky.proxy().forwarded(CREATE);
    const approval = { slug, reason: 'Read it: a real story.', actor: 'operator:lead', op_id: 'approve-1' };

    const answers = await Promise.all(Array.from({ length: 16 }, () => approveHeldAnnouncement(ctx, approval)));
    const replay = await approveHeldAnnouncement(ctx, approval);
    const another = await approveHeldAnnouncement(ctx, { ...approval, op_id: 'approve-2' });
    await idle();

    for (const answer of answers) expect(answer).toMatchObject({ slug, released: true });
    expect(replay).toEqual({ slug, released: true, replayed: true });
    expect(another).toEqual({ slug, released: false });
    expect(await auditRecords(slug)).toEqual([
      expect.objectContaining({
        PK: 'MODLOG',
        action: 'approve',
        actor: 'operator:lead',
        target_kind: 'story',
        target: slug,
        op_id: 'approve-1',
      }),
      expect.objectContaining({ PK: `STORY#${slug}`, action: 'approve', reason: 'Read it: a real story.' }),
    ]);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    expect(bsky.proxy().forwarded(CREATE) - before).toBe(1);
    expect((await getStory(app.ctx(), newcomer, { slug })).announce.state).toBe('posted');
  });

  it('an established account’s reproduction releases it (a new account’s does not); the window passing releases another', async () => {
    await ensureAccount(app.ctx(), veteran);
    app.advance(24 * HOUR_MS + 1);
    const latecomer = caller('latecomer');
    const fresh = caller('fresh');
    await ensureAccount(app.ctx(), latecomer);
    await ensureAccount(app.ctx(), fresh);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const reproduced = (await publishStory(ctx, latecomer, { markdown: storyTitled('Reproduced by a veteran') })).slug;
    const waited = (await publishStory(ctx, latecomer, { markdown: storyTitled('Waited out its day') })).slug;
    await idle();

    await reportReproduction(ctx, fresh, { slug: reproduced, result: 'worked' });
    await idle();
    expect(await bsky.postsFor(reproduced)).toHaveLength(0);
    await Promise.all(Array.from({ length: 16 }, () => reportReproduction(ctx, veteran, { slug: reproduced, result: 'worked' })));
    await idle();
    expect(await bsky.postsFor(reproduced)).toHaveLength(1);

    expect(await announceStory(app.ctx(), bsky.announcer(), waited)).toMatchObject({ outcome: 'not_due' });
    app.advance(24 * HOUR_MS + 1);
    await Promise.all([announceStory(app.ctx(), bsky.announcer(), waited), announceStory(app.ctx(), bsky.announcer(), waited)]);
    expect(await bsky.postsFor(waited)).toHaveLength(1);
  });
});
