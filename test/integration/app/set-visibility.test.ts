import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { feedMonthsKey, opKey } from '../../../src/store/keys.ts';
import { replaceItem } from '../../../src/store/replace-by-key.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { useOutside } from '../../helpers/outside.ts';
import { refusal } from '../../helpers/refusal.ts';
import { updateStoredItem, updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('set-visibility');
const alice = caller('alice');
const bob = caller('bob');
const { published, storyMeta } = storySetup(app, alice);

const FEED = ['GSI1PK', 'GSI1SK'];
const QUEUE = ['GSI3PK', 'GSI3SK'];

// Writes that stand for other processes (an editor, the announcer).
const outside = useOutside(app);

const without = (item: Record<string, unknown>, attributes: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !attributes.includes(name)));

describe('set_visibility is safe to deliver twice', () => {
  it('a second identical hide answers the same and writes nothing', async () => {
    const slug = await published('Hidden twice');
    const first = await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const before = await app.state();
    app.counter().reset();
    const second = await setVisibility(app.ctx(), alice, { slug, hidden: true });
    console.log('identical hide round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 1 });
    expect(second).toEqual(first);
    expect(first).toEqual({ slug, hidden: true, visibility: 'public' });
    expect(await app.state()).toEqual(before);
  });

  it('a second identical unhide answers the same and writes nothing', async () => {
    const slug = await published('Unhidden twice');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const first = await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const before = await app.state();
    app.counter().reset();
    const second = await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(first).toEqual({ slug, hidden: false, visibility: 'public' });
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel hides all answer the same and leave the state of one hide', async () => {
    const slug = await published('Sixteen hides');
    const before = await app.state();
    const answers = await Promise.all(Array.from({ length: 16 }, () => setVisibility(app.ctx(), alice, { slug, hidden: true })));
    for (const answer of answers) expect(answer).toEqual({ slug, hidden: true, visibility: 'public' });
    const expected = before.map((item) =>
      item.PK === `STORY#${slug}` && item.SK === 'META' ? { ...without(item, [...FEED, ...QUEUE]), hidden: true } : item,
    );
    expect(await app.state()).toEqual(expected);
  });

  it('16 parallel unhides all answer the same, list the story once and queue one announcement', async () => {
    const slug = await published('Sixteen unhides');
    const published_ = await storyMeta(slug);
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const hidden = await app.state();
    const answers = await Promise.all(Array.from({ length: 16 }, () => setVisibility(app.ctx(), alice, { slug, hidden: false })));
    for (const answer of answers) expect(answer).toEqual({ slug, hidden: false, visibility: 'public' });
    const meta = await storyMeta(slug);
    expect(meta).toMatchObject({ hidden: false, GSI1PK: published_.GSI1PK, GSI1SK: published_.GSI1SK, GSI3PK: 'ANNOUNCE' });
    expect(meta.GSI3SK).toMatch(new RegExp(`#${slug}$`));
    const others = (await app.state()).filter((item) => !(item.PK === `STORY#${slug}` && item.SK === 'META'));
    expect(others).toEqual(hidden.filter((item) => !(item.PK === `STORY#${slug}` && item.SK === 'META')));
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const slug = await published('Hide replayed later');
    const first = await setVisibility(app.ctx(), alice, { slug, hidden: true, op_id: 'op-hide-1' });
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const before = await app.state();
    app.counter().reset();
    const replay = await setVisibility(app.ctx(), alice, { slug, hidden: true, op_id: 'op-hide-1' });
    console.log('set_visibility replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect((await storyMeta(slug)).hidden).toBe(false);
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('16 parallel deliveries of one op_id commit one change and the rest replay it', async () => {
    const slug = await published('Hide op sixteen times');
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => setVisibility(app.ctx(), alice, { slug, hidden: true, op_id: 'op-hide-16' })),
    );
    for (const { replayed: _flag, ...answer } of answers) expect(answer).toEqual({ slug, hidden: true, visibility: 'public' });
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
  });

  it('an op_id reused with other arguments is idempotency_key_reused and writes nothing', async () => {
    const slug = await published('Hide op reused');
    await setVisibility(app.ctx(), alice, { slug, hidden: true, op_id: 'op-hide-reused' });
    const before = await app.allItems();
    const error = await refusal(setVisibility(app.ctx(), alice, { slug, hidden: false, op_id: 'op-hide-reused' }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('one op_id used by two authors is two independent ops', async () => {
    const aliceSlug = await published('Alice shares an op id');
    const bobSlug = (await publishStory(app.ctx(), bob, { markdown: storyTitled('Bob shares an op id') })).slug;
    const fromAlice = await setVisibility(app.ctx(), alice, { slug: aliceSlug, hidden: true, op_id: 'op-shared' });
    const fromBob = await setVisibility(app.ctx(), bob, { slug: bobSlug, hidden: true, op_id: 'op-shared' });
    expect(fromAlice).toEqual({ slug: aliceSlug, hidden: true, visibility: 'public' });
    expect(fromBob).toEqual({ slug: bobSlug, hidden: true, visibility: 'public' });
    const ops = (await app.allItems()).filter((item) => item.SK === 'op-shared').map((item) => item.PK);
    expect(ops).toEqual([`OP#${alice.account}`, `OP#${bob.account}`]);
  });

  it('an op record past its TTL but still stored is treated as absent and replaced', async () => {
    const slug = await published('Lingering expired op');
    const ctx = app.ctx();
    // DynamoDB deletes expired items days late: an old record for other arguments still lingers.
    // (Expired by the app's clock only, so DynamoDB Local's own TTL sweep cannot remove it first.)
    const expiresAt = epochSeconds(ctx.store.now()) + 60;
    await writeAtomically(ctx.store, [
      replaceItem({
        ...opKey(alice.account, 'op-expired'),
        tool: 'set_visibility',
        fingerprint: 'v1:other-arguments',
        outcome: { stale: true },
        expires_at: expiresAt,
      }),
    ]);
    app.advance(120_000);
    const answer = await setVisibility(ctx, alice, { slug, hidden: true, op_id: 'op-expired' });
    expect(answer).toEqual({ slug, hidden: true, visibility: 'public' });
    expect((await storyMeta(slug)).hidden).toBe(true);
    const record = (await app.allItems()).find((item) => item.PK === `OP#${alice.account}` && item.SK === 'op-expired');
    expect(record).toMatchObject({ tool: 'set_visibility', outcome: answer });
    expect(record?.expires_at).toBeGreaterThan(epochSeconds(ctx.store.now()));
  });
});

describe('set_visibility is for the author only', () => {
  it('a non-author hiding a public story is forbidden and nothing is written', async () => {
    const slug = await published('Not yours to hide');
    const before = await app.allItems();
    const error = await refusal(setVisibility(app.ctx(), bob, { slug, hidden: true }));
    expect(error.code).toBe('forbidden');
    expect(await app.allItems()).toEqual(before);
  });

  it('a non-author hiding a private story gets not_found and nothing is written', async () => {
    const slug = await published('Private and not yours', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(setVisibility(app.ctx(), bob, { slug, hidden: true }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it('a non-author unhiding a hidden story gets not_found and nothing is written', async () => {
    const slug = await published('Hidden and not yours');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const before = await app.allItems();
    const error = await refusal(setVisibility(app.ctx(), bob, { slug, hidden: false, op_id: 'op-bob-unhide' }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it.each([
    ['an unknown slug', { slug: '2026-10-14-no-such-story', hidden: true }, 'not_found'],
    ['a malformed slug', { slug: 'Not A Slug', hidden: true }, 'validation_failed'],
    ['hidden missing', { slug: '2026-10-14-no-such-story' }, 'validation_failed'],
    ['hidden as a string', { slug: '2026-10-14-no-such-story', hidden: 'yes' }, 'validation_failed'],
    ['an unknown field', { slug: '2026-10-14-no-such-story', hidden: true, visibility: 'private' }, 'validation_failed'],
    ['a malformed op_id', { slug: '2026-10-14-no-such-story', hidden: true, op_id: 'has spaces' }, 'validation_failed'],
  ])('%s is refused with a typed error and nothing is written', async (_name, input, code) => {
    const before = await app.allItems();
    const error = await refusal(setVisibility(app.ctx(), alice, input));
    expect(error.code).toBe(code);
    expect(await app.allItems()).toEqual(before);
  });
});

describe('hiding takes a story out of the feed and off the announce queue (onto it when its post must be deleted); unhiding undoes it', () => {
  it('hiding keeps counts and reproducers (an Update, never a Put) and removes the feed and queue attributes', async () => {
    const slug = await published('Hidden with counts');
    await updateStoryMeta(outside(), slug, {
      expression: 'SET #counts.#worked = :two ADD #reproducers :accounts',
      names: { '#counts': 'counts', '#worked': 'worked', '#reproducers': 'reproducers' },
      values: { ':two': 2, ':accounts': new Set(['acct-x', 'acct-y']) },
    });
    const before = await storyMeta(slug);
    expect(before).toMatchObject({ GSI1PK: expect.any(String), GSI3PK: 'ANNOUNCE' });
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const after = await storyMeta(slug);
    expect(after).toEqual({ ...without(before, [...FEED, ...QUEUE]), hidden: true });
    expect(after).toMatchObject({ counts: { worked: 2 }, reproducers: ['acct-x', 'acct-y'] });
  });

  it('unhiding a public story never posted lists it where it was and queues its announcement again', async () => {
    const slug = await published('Back in the feed');
    const before = await storyMeta(slug);
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const at = new Date(app.ctx().store.now()).toISOString();
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const after = await storyMeta(slug);
    expect(without(after, QUEUE)).toEqual(without(before, QUEUE));
    expect(after.GSI3PK).toBe('ANNOUNCE');
    expect(String(after.GSI3SK) >= `${at}#${slug}`).toBe(true);
  });

  it('unhiding adds the story’s month back to the feed months when it is missing', async () => {
    const slug = await published('Month comes back');
    const month = String((await storyMeta(slug)).published_at).slice(0, 7);
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    await updateStoredItem(outside(), feedMonthsKey, {
      expression: 'DELETE #months :month',
      names: { '#months': 'months' },
      values: { ':month': new Set([month]) },
    });
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const months = (await app.state()).find((item) => item.PK === feedMonthsKey.PK && item.SK === feedMonthsKey.SK);
    expect(months?.months).toContain(month);
  });

  it('unhiding a story already posted and documented lists it again without queueing a second announcement', async () => {
    const slug = await published('Posted before hiding');
    await updateStoryMeta(outside(), slug, {
      expression: 'SET #uri = :uri, doc_revision = :one REMOVE GSI3PK, GSI3SK',
      names: { '#uri': 'bsky_uri' },
      values: { ':uri': 'at://did:plc:lorebook/app.bsky.feed.post/3posted', ':one': 1 },
    });
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const meta = await storyMeta(slug);
    expect(meta).toMatchObject({ hidden: false, GSI1PK: expect.any(String), bsky_uri: 'at://did:plc:lorebook/app.bsky.feed.post/3posted' });
    expect(meta.GSI3PK).toBeUndefined();
  });

  it('unhiding a story posted but not documented keeps it queued: its document is owed (design.md#standard-site)', async () => {
    const slug = await published('Posted, never documented, hidden');
    await updateStoryMeta(outside(), slug, {
      expression: 'SET #uri = :uri REMOVE GSI3PK, GSI3SK',
      names: { '#uri': 'bsky_uri' },
      values: { ':uri': 'at://did:plc:lorebook/app.bsky.feed.post/3undoc' },
    });
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(await storyMeta(slug)).toMatchObject({
      hidden: false,
      GSI3PK: 'ANNOUNCE',
      bsky_uri: 'at://did:plc:lorebook/app.bsky.feed.post/3undoc',
    });
  });

  it('hiding a posted story queues the deletion of its post, due now', async () => {
    const slug = await published('Posted then hidden');
    const uri = 'at://did:plc:lorebook/app.bsky.feed.post/3hidden';
    await updateStoryMeta(outside(), slug, {
      expression: 'SET #uri = :uri REMOVE GSI3PK, GSI3SK',
      names: { '#uri': 'bsky_uri' },
      values: { ':uri': uri },
    });
    const at = new Date(app.ctx().store.now()).toISOString();
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const hidden = await storyMeta(slug);
    expect(hidden).toMatchObject({ hidden: true, bsky_uri: uri, GSI3PK: 'ANNOUNCE' });
    expect(String(hidden.GSI3SK) >= `${at}#${slug}`).toBe(true);
    expect(hidden.GSI1PK).toBeUndefined();
  });

  it('a hide that read "never announced" while an announcer claimed re-plans and queues the deletion', async () => {
    const slug = await published('Claimed during the hide');
    afterNextRead(app.ctx(), () =>
      updateStoryMeta(outside(), slug, {
        expression: 'SET #uri = :pending, claim_id = :claim, claimed_at = :at, announce_attempts = :one',
        names: { '#uri': 'bsky_uri' },
        values: { ':pending': 'pending', ':claim': 'announcer', ':at': new Date().toISOString(), ':one': 1 },
      }),
    );
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    expect(await storyMeta(slug)).toMatchObject({ hidden: true, bsky_uri: 'pending', GSI3PK: 'ANNOUNCE' });
  });

  it('unhiding a story still on the announce queue keeps its place in the queue', async () => {
    const slug = await published('Still queued while hidden');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    await updateStoryMeta(outside(), slug, {
      expression: 'SET GSI3PK = :queue, GSI3SK = :due',
      values: { ':queue': 'ANNOUNCE', ':due': `2026-01-01T00:00:00.000Z#${slug}` },
    });
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(await storyMeta(slug)).toMatchObject({ hidden: false, GSI3PK: 'ANNOUNCE', GSI3SK: `2026-01-01T00:00:00.000Z#${slug}` });
  });

  it('unhiding a private story neither lists nor announces it', async () => {
    const slug = await published('Private unhidden', { visibility: 'private' });
    const before = await storyMeta(slug);
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const answer = await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(answer).toEqual({ slug, hidden: false, visibility: 'private' });
    expect(await storyMeta(slug)).toEqual(before);
    expect(before.GSI1PK).toBeUndefined();
    expect(before.GSI3PK).toBeUndefined();
  });
});

describe('set_visibility against competing writes', () => {
  it('an unhide that read "private" while an edit made the story public still lists it', async () => {
    const slug = await published('Made public meanwhile', { visibility: 'private' });
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    afterNextRead(app.ctx(), () =>
      updateStoryMeta(outside(), slug, {
        expression: 'SET #visibility = :public',
        names: { '#visibility': 'visibility' },
        values: { ':public': 'public' },
      }),
    );
    const answer = await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(answer).toEqual({ slug, hidden: false, visibility: 'public' });
    expect(await storyMeta(slug)).toMatchObject({ hidden: false, visibility: 'public', GSI1PK: expect.any(String), GSI3PK: 'ANNOUNCE' });
  });

  it('an unhide that lost the race to another unhide keeps the winner’s place in the announce queue', async () => {
    const slug = await published('Two unhides race');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const winner: AppContext = { ...outside(), store: { ...outside().store, now: () => Date.parse('2030-01-01T00:00:00.000Z') } };
    afterNextRead(app.ctx(), () => setVisibility(winner, alice, { slug, hidden: false }));
    const answer = await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(answer).toEqual({ slug, hidden: false, visibility: 'public' });
    expect(await storyMeta(slug)).toMatchObject({ hidden: false, GSI3SK: `2030-01-01T00:00:00.000Z#${slug}` });
  });

  it('an unhide does not queue a story the announcer posted in between', async () => {
    const slug = await published('Posted during unhide');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    afterNextRead(app.ctx(), () =>
      updateStoryMeta(outside(), slug, {
        expression: 'SET #uri = :uri',
        names: { '#uri': 'bsky_uri' },
        values: { ':uri': 'at://did:plc:lorebook/app.bsky.feed.post/3race' },
      }),
    );
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    const meta = await storyMeta(slug);
    expect(meta).toMatchObject({ hidden: false, GSI1PK: expect.any(String), bsky_uri: 'at://did:plc:lorebook/app.bsky.feed.post/3race' });
    expect(meta.GSI3PK).toBeUndefined();
  });

  it('a hide with an op_id that found nothing to do, racing an unhide, still ends hidden as it answered', async () => {
    const slug = await published('No-op hide races unhide');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    afterNextRead(app.ctx(), () => setVisibility(outside(), alice, { slug, hidden: false }));
    const answer = await setVisibility(app.ctx(), alice, { slug, hidden: true, op_id: 'op-noop-hide' });
    expect(answer).toEqual({ slug, hidden: true, visibility: 'public' });
    const meta = await storyMeta(slug);
    expect(meta.hidden).toBe(true);
    expect(meta.GSI1PK).toBeUndefined();
  });
});
