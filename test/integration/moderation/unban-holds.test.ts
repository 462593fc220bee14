// What an unban does to holds (design.md#bans) against DynamoDB Local: the unbanned account's flags
// count again exactly once, and a story they bring back to LOREBOOK_QUARANTINE_FLAGS is held
// exactly once — also when another reader's flag lands in the middle of the unban's step; a story
// an operator restored during the ban stays restored: the unban does not hold it again.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { banAccount, unbanAccount } from '../../../src/app/moderation/ban/account.ts';
import { restoreStory } from '../../../src/app/moderation/restore-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('unban-holds', { accountDeletionGraceSeconds: 0 });
const alice = caller('alice');
const [bob, carol, dave] = [caller('bob'), caller('carol'), caller('dave')];
const { published, storyMeta, authorInbox } = storySetup(app, alice);
const DAY_MS = 24 * 60 * 60 * 1000;
let ops = 0;
const act = (target: string, reason: string) => ({ target, reason, actor: 'operator:test', op_id: `unban-holds-${++ops}` });
const queued = async (slug: string) => (await app.state()).filter((item) => item.PK === 'MODQUEUE' && item.slug === slug);
const moderationNotices = async (slug: string) => (await authorInbox(slug)).filter((item) => item.kind === 'moderation');

/** An established account signed in with Bluesky, so the operator names it by its DID. */
async function signedIn(name: string): Promise<Caller> {
  const person = { account: `did:plc:unban${name}`, handle: `${name}.test` };
  await recordBlueskySignIn(app.ctx(), { did: person.account, handle: person.handle });
  return person;
}

let flaggers: Caller[] = [];

beforeAll(async () => {
  for (const person of [alice, bob, carol, dave]) await ensureAccount(app.ctx(), person);
  flaggers = [await signedIn('frank'), await signedIn('gina')];
  app.advance(DAY_MS + 1);
});

/** A story the banned account flagged before the ban, then `others` flagged during it: one short of the threshold. */
async function flaggedDuringBan(title: string, banned: Caller, others: Caller[]): Promise<string> {
  const slug = await published(title);
  await flagStory(app.ctx(), banned, { slug, reason: 'spam' });
  await banAccount(app.ctx(), act(banned.account, 'Spam run.'));
  expect(await storyMeta(slug)).toMatchObject({ flag_count: 0, hidden: false });
  for (const other of others) await flagStory(app.ctx(), other, { slug, reason: 'unsafe_steps' });
  return slug;
}

describe('an unban recounts flags and holds what they bring to the threshold, once', () => {
  it("the unbanned account's flag counts once again, and the story it brings to the threshold is held once, with one notice and one queue entry", async () => {
    const [frank] = flaggers as [Caller];
    const slug = await flaggedDuringBan('Recounted flags hold this story', frank, [bob, carol]);
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 2, hidden: false });

    await unbanAccount(app.ctx(), act(frank.account, 'Appeal accepted.'));
    const meta = await storyMeta(slug);
    expect(meta).toMatchObject({
      flag_count: 3,
      hidden: true,
      moderation: { state: 'quarantined', reasons: ['spam', 'unsafe_steps'], flags: 3 },
    });
    expect(Object.keys(meta.flaggers as object).sort()).toEqual([bob.account, carol.account, frank.account].sort());
    expect(meta.ban_hold).toBeUndefined();
    expect(await moderationNotices(slug)).toHaveLength(1);
    expect(await queued(slug)).toHaveLength(1);

    // The same unban again, and a ban and unban after it: nothing counted or held twice.
    await unbanAccount(app.ctx(), act(frank.account, 'Appeal accepted.'));
    expect(await storyMeta(slug)).toEqual(meta);
    expect(await moderationNotices(slug)).toHaveLength(1);
  });

  it('a flag landing between the unban step reading the story and committing: the count ends at 3 and the story is held once', async () => {
    const [, gina] = flaggers as [Caller, Caller];
    const slug = await flaggedDuringBan('A flag races the unban on this story', gina, [bob]);
    const ginaFlag = `FLAG#${gina.account}`;
    let raced = false;
    afterNextRead(
      app.ctx(),
      async () => {
        raced = true;
        await flagStory(app.ctx(), dave, { slug, reason: 'off_topic' });
      },
      'BatchGetItem',
      (input) => JSON.stringify(input).includes(ginaFlag),
    );
    await unbanAccount(app.ctx(), act(gina.account, 'Appeal accepted.'));
    expect(raced).toBe(true);
    const meta = await storyMeta(slug);
    expect(meta).toMatchObject({ flag_count: 3, hidden: true, moderation: { state: 'quarantined', flags: 3 } });
    expect(Object.keys(meta.flaggers as object).sort()).toEqual([bob.account, dave.account, gina.account].sort());
    expect(await moderationNotices(slug)).toHaveLength(1);
    expect(await queued(slug)).toHaveLength(1);
  });
});

describe('a story an operator restored during its author ban', () => {
  it("stays restored after the unban: listed, the operator's reason kept, not held again", async () => {
    const henry = await signedIn('henry');
    app.advance(DAY_MS + 1);
    const slug = (await publishStory(app.ctx(), henry, { markdown: storyTitled("Henry's story restored during his ban") })).slug;
    await banAccount(app.ctx(), act(henry.account, 'Spam run.'));
    expect(await storyMeta(slug)).toMatchObject({ hidden: true, moderation: { state: 'quarantined' }, ban_hold: {} });
    const restored = await restoreStory(app.ctx(), {
      slug,
      reason: 'This one is a real story.',
      actor: 'operator:test',
      op_id: 'restore-henry',
    });
    const before = await storyMeta(slug);
    expect(before).toMatchObject({ hidden: false, moderation: { state: 'restored', reason: 'This one is a real story.' } });

    await unbanAccount(app.ctx(), act(henry.account, 'Appeal accepted.'));
    const after = await storyMeta(slug);
    expect(after).toMatchObject({
      hidden: false,
      moderation: { state: 'restored', since: restored.since, reason: 'This one is a real story.' },
    });
    expect(after.ban_hold).toBeUndefined();
    expect(after).toEqual(before);
  });
});
