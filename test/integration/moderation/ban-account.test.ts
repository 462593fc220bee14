// A ban and an unban (design.md#bans) against DynamoDB Local: the account's reproductions, checks and
// flags leave every count once and come back exactly once; its stories are held and released;
// every write of the account answers account_suspended; twice-safe three ways.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { banAccount, unbanAccount } from '../../../src/app/moderation/ban/account.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('ban-account', { accountDeletionGraceSeconds: 0 });
const bob = caller('bob');
const carol = caller('carol');
const { published, storyMeta } = storySetup(app, bob);
const DAY_MS = 24 * 60 * 60 * 1000;
const ban = (target: string, op_id: string) => ({ target, reason: 'Spam run across many stories.', actor: 'operator:test', op_id });

interface World {
  leaver: { account: string; handle: string };
  bobs: [string, string];
  own: { shown: string; hidden: string };
}

/** A reader with a history: reproduced and checked bob's first story, flagged his second, wrote two stories (one hidden). */
async function readerWithHistory(name: string): Promise<World> {
  // Signed in with Bluesky: the handle resolves to the DID, as the operator names it.
  const leaver = { account: `did:plc:ban${name}`, handle: `${name}.test` };
  await recordBlueskySignIn(app.ctx(), { did: leaver.account, handle: leaver.handle });
  app.advance(DAY_MS + 1);
  const bobs: [string, string] = [await published(`Bob's first for ${name}`), await published(`Bob's second for ${name}`)];
  await reportReproduction(app.ctx(), carol, { slug: bobs[0], result: 'worked' });
  await reportReproduction(app.ctx(), leaver, { slug: bobs[0], result: 'worked' });
  await reportCheck(app.ctx(), leaver, { slug: bobs[0], result: 'has_problem' });
  await flagStory(app.ctx(), leaver, { slug: bobs[1], reason: 'spam' });
  const shown = (await publishStory(app.ctx(), leaver, { markdown: storyTitled(`${name}'s own story`) })).slug;
  const hidden = (await publishStory(app.ctx(), leaver, { markdown: storyTitled(`${name}'s hidden story`) })).slug;
  await setVisibility(app.ctx(), leaver, { slug: hidden, hidden: true });
  await reportReproduction(app.ctx(), bob, { slug: shown, result: 'partial' });
  return { leaver, bobs, own: { shown, hidden } };
}

/**
 * The stories' META items; the announce queue's due time left out: a released story never posted is
 * owed its announcement from the unban on.
 */
const metas = async (world: World) =>
  (await Promise.all([...world.bobs, world.own.shown, world.own.hidden].map((slug) => storyMeta(slug)))).map(
    ({ GSI3SK: _due, ...meta }) => meta,
  );
const modlog = async () => (await app.state()).filter((item) => item.PK === 'MODLOG' || String(item.SK).startsWith('MODLOG#'));

beforeAll(async () => {
  for (const person of [bob, carol]) await ensureAccount(app.ctx(), person);
});

describe('a ban and its unban', () => {
  it("takes the account's reports out of every count once, holds its stories, refuses its writes; the unban puts back exactly what was", async () => {
    const world = await readerWithHistory('dora');
    const [bob1, bob2] = world.bobs;
    const before = await metas(world);
    expect(before[0]).toMatchObject({ counts: { worked: 2, has_problem: 1 } });
    expect(before[1]).toMatchObject({ flag_count: 1 });

    const banned = await banAccount(app.ctx(), ban(world.leaver.handle, 'op-ban-dora'));
    expect(banned).toMatchObject({ account: world.leaver.account, status: 'banned' });
    const [b1, b2, shown, hidden] = await metas(world);
    expect(b1).toMatchObject({ counts: { worked: 1, has_problem: 0 }, reproducers: [carol.account] });
    expect(b2).toMatchObject({ flag_count: 0, flaggers: {} });
    expect(shown).toMatchObject({ hidden: true, moderation: { state: 'quarantined' } });
    expect(hidden).toEqual(before[3]);
    const suspended = await refusal(reportReproduction(app.ctx(), world.leaver, { slug: bob1, result: 'failed' }));
    expect(suspended.toBody()).toMatchObject({ code: 'account_suspended', retryable: false });
    expect(suspended.httpStatus).toBe(403);
    expect(suspended.message).toContain('Spam run across many stories.');
    expect((await refusal(flagStory(app.ctx(), world.leaver, { slug: bob2, reason: 'off_topic' }))).code).toBe('account_suspended');
    expect((await modlog()).map((item) => [item.PK, item.action, item.target, item.changes])).toEqual([
      [`ACCOUNT#${world.leaver.account}`, 'ban', world.leaver.account, { banned: [false, true] }],
      ['MODLOG', 'ban', world.leaver.account, { banned: [false, true] }],
    ]);

    const unbanned = await unbanAccount(app.ctx(), { ...ban(world.leaver.account, 'op-unban-dora'), reason: 'Appeal accepted.' });
    expect(unbanned.status).toBe('unbanned');
    expect(await metas(world)).toEqual(before);
    // Back to a person who acts: the reports move counts as before the ban.
    await reportReproduction(app.ctx(), world.leaver, { slug: bob1, result: 'failed' });
    expect(await storyMeta(bob1)).toMatchObject({ counts: { worked: 1, failed: 1, has_problem: 1 } });
  });
});

describe('a ban is twice-safe', () => {
  it('the same ban twice writes nothing the second time', async () => {
    const world = await readerWithHistory('ezra');
    await banAccount(app.ctx(), ban(world.leaver.handle, 'op-ban-ezra-1'));
    const state = await app.state();
    app.counter().reset();
    expect(await banAccount(app.ctx(), ban(world.leaver.handle, 'op-ban-ezra-2'))).toMatchObject({ status: 'already_banned', steps: 0 });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(state);
  });

  it('16 bans at once move each count once and write one audit record; 16 unbans at once put them back once', async () => {
    const world = await readerWithHistory('fern');
    const before = await metas(world);
    const logBefore = (await modlog()).length;
    const bans = await Promise.all(
      Array.from({ length: 16 }, (_, i) => banAccount(app.ctx(), ban(world.leaver.handle, `op-ban-fern-${i}`))),
    );
    expect(bans.filter((answer) => answer.status === 'banned')).toHaveLength(1);
    const [b1, b2] = await metas(world);
    expect(b1).toMatchObject({ counts: { worked: 1, has_problem: 0 } });
    expect(b2).toMatchObject({ flag_count: 0 });
    const unbans = await Promise.all(Array.from({ length: 16 }, () => unbanAccount(app.ctx(), ban(world.leaver.handle, 'op-unban-fern'))));
    expect(new Set(unbans.map((answer) => answer.status))).toEqual(new Set(['unbanned']));
    expect(await metas(world)).toEqual(before);
    expect((await modlog()).length - logBefore).toBe(4);
  });

  it('an op_id replay after the unban answers the first answer and bans nothing', async () => {
    const world = await readerWithHistory('gus');
    const first = await banAccount(app.ctx(), ban(world.leaver.handle, 'op-ban-gus'));
    await unbanAccount(app.ctx(), ban(world.leaver.handle, 'op-unban-gus'));
    const state = await app.state();
    app.counter().reset();
    expect(await banAccount(app.ctx(), ban(world.leaver.handle, 'op-ban-gus'))).toEqual({ ...first, steps: 0, moved: 0 });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(state);
    // The same op_id for another reason is another request.
    expect((await refusal(banAccount(app.ctx(), { ...ban(world.leaver.handle, 'op-ban-gus'), reason: 'Other.' }))).code).toBe(
      'idempotency_key_reused',
    );
  });
});
