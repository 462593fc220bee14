// flag_story and unflag_story (docs/moderation.md): twice-safe three ways, who counts, the limits,
// and what a hold does that the author and readers can see.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { exportAccount } from '../../../src/app/account-export/export-account.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { readStoryPage } from '../../../src/app/queries/story-page.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { unflagStory } from '../../../src/app/unflag-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const MAX_OPEN_FLAGS = 5;
const app = useAppFixture('flag-story', { maxOpenFlags: MAX_OPEN_FLAGS, accountDeletionGraceSeconds: 0 });
const alice = caller('alice');
const [bob, carol, dave, frank, gina] = [caller('bob'), caller('carol'), caller('dave'), caller('frank'), caller('gina')];
const { published, storyMeta } = storySetup(app, alice);
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  for (const reader of [bob, carol, dave, frank, gina]) await ensureAccount(app.ctx(), reader);
  app.advance(DAY_MS + 1);
});

const openFlags = async (account: string): Promise<unknown> =>
  (await app.state()).find((item) => item.PK === `ACCOUNT#${account}` && item.SK === 'FLAGS')?.stories;

describe('flag_story is safe to deliver twice', () => {
  it('a second identical flag answers the same and writes nothing', async () => {
    const slug = await published('Flagged twice');
    const first = await flagStory(app.ctx(), bob, { slug, reason: 'off_topic', note: 'A shopping list.' });
    expect(first).toEqual({ slug, reason: 'off_topic', counted: true });
    const before = await app.state();
    app.counter().reset();
    expect(await flagStory(app.ctx(), bob, { slug, reason: 'off_topic', note: 'A shopping list.' })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel first flags count once and all answer the same', async () => {
    const slug = await published('Sixteen flags at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => flagStory(app.ctx(), bob, { slug, reason: 'spam' })));
    for (const answer of answers) expect(answer).toEqual({ slug, reason: 'spam', counted: true });
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 1, flaggers: { [bob.account]: 'spam' } });
    expect(await openFlags(bob.account)).toContain(slug);
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const slug = await published('Flag replayed later');
    const first = await flagStory(app.ctx(), bob, { slug, reason: 'spam', op_id: 'op-flag-1' });
    await flagStory(app.ctx(), bob, { slug, reason: 'duplicate', duplicate_of: '2026-01-01-the-original' });
    const before = await app.state();
    app.counter().reset();
    expect(await flagStory(app.ctx(), bob, { slug, reason: 'spam', op_id: 'op-flag-1' })).toEqual({ ...first, replayed: true });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 1, flaggers: { [bob.account]: 'duplicate' } });
  });
});

describe('unflag_story is safe to deliver twice', () => {
  it('a second unflag answers the same and writes nothing', async () => {
    const slug = await published('Unflagged twice');
    await flagStory(app.ctx(), bob, { slug, reason: 'spam' });
    const first = await unflagStory(app.ctx(), bob, { slug });
    expect(first).toEqual({ slug, withdrawn: true });
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 0, flaggers: {} });
    const before = await app.state();
    app.counter().reset();
    expect(await unflagStory(app.ctx(), bob, { slug })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel unflags take the count back once', async () => {
    const slug = await published('Sixteen unflags at once');
    await flagStory(app.ctx(), bob, { slug, reason: 'spam' });
    await flagStory(app.ctx(), carol, { slug, reason: 'spam' });
    const answers = await Promise.all(Array.from({ length: 16 }, () => unflagStory(app.ctx(), bob, { slug })));
    for (const answer of answers) expect(answer).toEqual({ slug, withdrawn: true });
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 1, flaggers: { [carol.account]: 'spam' } });
    expect(await openFlags(bob.account)).not.toContain(slug);
  });

  it('an op_id replay after flagging again returns the first answer and changes nothing', async () => {
    const slug = await published('Unflag replayed later');
    await flagStory(app.ctx(), bob, { slug, reason: 'spam' });
    const first = await unflagStory(app.ctx(), bob, { slug, op_id: 'op-unflag-1' });
    await flagStory(app.ctx(), bob, { slug, reason: 'impersonation' });
    const before = await app.state();
    expect(await unflagStory(app.ctx(), bob, { slug, op_id: 'op-unflag-1' })).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
  });
});

describe('who counts, and the limits', () => {
  it("a new account's flag is kept but not counted: three new accounts hold nothing", async () => {
    const slug = await published('Flagged by new accounts');
    for (const name of ['new1', 'new2', 'new3']) {
      await ensureAccount(app.ctx(), caller(name));
      expect(await flagStory(app.ctx(), caller(name), { slug, reason: 'spam' })).toEqual({ slug, reason: 'spam', counted: false });
    }
    const meta = await storyMeta(slug);
    expect(meta.hidden).toBe(false);
    expect(meta).not.toHaveProperty('flag_count');
    expect(meta).not.toHaveProperty('moderation');
  });

  it('flagging your own story is forbidden and writes nothing', async () => {
    const slug = await published('Flagged by its author');
    const before = await app.state();
    expect((await refusal(flagStory(app.ctx(), alice, { slug, reason: 'spam' }))).code).toBe('forbidden');
    expect(await app.state()).toEqual(before);
  });

  it('a duplicate flag must name another story', async () => {
    const slug = await published('Flagged as a duplicate');
    expect((await refusal(flagStory(app.ctx(), bob, { slug, reason: 'duplicate' }))).code).toBe('validation_failed');
    expect((await refusal(flagStory(app.ctx(), bob, { slug, reason: 'duplicate', duplicate_of: slug }))).code).toBe('validation_failed');
    expect((await refusal(flagStory(app.ctx(), bob, { slug, reason: 'spam', duplicate_of: slug }))).code).toBe('validation_failed');
  });

  it('past the open-flag limit a flag is a non-retryable conflict; unflag_story frees a place', async () => {
    const slugs: string[] = [];
    for (let n = 0; n <= MAX_OPEN_FLAGS; n += 1) slugs.push(await published(`Frank flags story ${n}`));
    const last = slugs[MAX_OPEN_FLAGS] as string;
    for (const slug of slugs.slice(0, MAX_OPEN_FLAGS)) await flagStory(app.ctx(), frank, { slug, reason: 'off_topic' });
    const before = await app.state();
    const error = await refusal(flagStory(app.ctx(), frank, { slug: last, reason: 'off_topic' }));
    expect(error).toMatchObject({
      code: 'conflict',
      retryable: false,
      details: { reason: 'open_flag_limit', max_open_flags: MAX_OPEN_FLAGS },
    });
    expect(await app.state()).toEqual(before);
    await unflagStory(app.ctx(), frank, { slug: slugs[0] as string });
    expect(await flagStory(app.ctx(), frank, { slug: last, reason: 'off_topic' })).toMatchObject({ counted: true });
  });
});

describe('a held story', () => {
  it('stays held when its flags are withdrawn; its author cannot show it; its page says it is held, without its title', async () => {
    const slug = await published('Held and unflagged');
    const reasons = ['spam', 'unsafe_steps', 'spam'] as const;
    for (const [index, reader] of [bob, carol, dave].entries())
      await flagStory(app.ctx(), reader, { slug, reason: reasons[index] ?? 'spam' });
    expect(await storyMeta(slug)).toMatchObject({ hidden: true, moderation: { state: 'quarantined', reasons: ['spam', 'unsafe_steps'] } });
    for (const reader of [bob, carol, dave]) await unflagStory(app.ctx(), reader, { slug });
    expect(await storyMeta(slug)).toMatchObject({ hidden: true, flag_count: 0, moderation: { state: 'quarantined' } });
    expect((await refusal(setVisibility(app.ctx(), alice, { slug, hidden: false }))).code).toBe('conflict');
    expect(await readStoryPage(app.ctx(), slug)).toEqual({ kind: 'held', slug, by: 'readers' });
  });
});

describe('account deletion', () => {
  it("the account's export lists its flags; its deletion takes each out of the count exactly once, and its open flags go", async () => {
    const slug = await published('Flagged by an account that leaves');
    await flagStory(app.ctx(), gina, { slug, reason: 'spam' });
    await flagStory(app.ctx(), carol, { slug, reason: 'off_topic' });
    let exported = '';
    for await (const chunk of await exportAccount(app.ctx(), gina)) exported += chunk;
    expect((JSON.parse(exported) as { flags: unknown[] }).flags).toEqual([
      expect.objectContaining({ slug, reason: 'spam', counted: true }),
    ]);
    expect(await deleteAccount(app.ctx(), gina, { confirm: gina.handle })).toMatchObject({ status: 'deleting' });
    expect(await deleteAccountSteps(app.ctx(), gina.account, 1_000)).toMatchObject({ finished: true });
    expect(await storyMeta(slug)).toMatchObject({ flag_count: 1, flaggers: { [carol.account]: 'off_topic' } });
    const left = (await app.state()).filter((item) => String(item.SK) === `FLAG#${gina.account}` || item.PK === `ACCOUNT#${gina.account}`);
    expect(left.map((item) => item.SK)).toEqual(['META']);
  });
});
