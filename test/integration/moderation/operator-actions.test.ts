// The operator's quarantine and restore and the author's appeal_moderation (docs/moderation.md,
// design.md#operators-audit) against DynamoDB Local: twice-safe three ways, one audit record per action, what the
// author sees, the review queue, and a restore racing a new flag.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { appealModeration } from '../../../src/app/appeal-moderation.ts';
import { flagStory } from '../../../src/app/flag-story.ts';
import { moderationRecord, reviewQueue } from '../../../src/app/moderation/moderation-record.ts';
import { quarantineStory } from '../../../src/app/moderation/quarantine-story.ts';
import { restoreStory } from '../../../src/app/moderation/restore-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { INDEXES } from '../../../src/store/schema.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { fakeSecrets } from '../../helpers/fake-secrets.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('operator-actions');
const alice = caller('alice');
const readers = [caller('bob'), caller('carol'), caller('dave'), caller('erin')] as const;
const [bob, carol, dave, erin] = readers;
const { published, storyMeta, authorInbox } = storySetup(app, alice);
const DAY_MS = 24 * 60 * 60 * 1000;
/** A live-looking GitHub token (fake), which the secret door refuses. */
const SECRET = fakeSecrets().find((found) => found.kind === 'github_token')?.text as string;
const ACTOR = 'operator:ops';
let ops = 0;
/** One operator invocation's arguments: a fresh op id each, as the CLI mints one per run. */
const act = (slug: string, reason: string, opId = `op-${++ops}`) => ({ slug, reason, actor: ACTOR, op_id: opId });

beforeAll(async () => {
  for (const reader of readers) await ensureAccount(app.ctx(), reader);
  app.advance(DAY_MS + 1);
});

const auditOf = async (slug: string) => (await app.state()).filter((item) => item.PK === 'MODLOG' && item.target === slug);
const storyAudit = async (slug: string) =>
  (await app.state()).filter((item) => item.PK === `STORY#${slug}` && String(item.SK).startsWith('MODLOG#'));
const queued = async (slug: string) => (await app.state()).filter((item) => item.PK === 'MODQUEUE' && item.slug === slug);

/** A story held by three readers' flags. */
async function heldByFlags(title: string): Promise<string> {
  const slug = await published(title);
  for (const reader of [bob, carol, dave]) {
    app.advance(1);
    await flagStory(app.ctx(), reader, { slug, reason: 'spam' });
  }
  expect(await storyMeta(slug)).toMatchObject({ hidden: true, moderation: { state: 'quarantined' } });
  app.advance(1);
  return slug;
}

describe('moderate quarantine is safe to run twice', () => {
  it('a second run changes nothing and writes no second audit record', async () => {
    const slug = await published('Quarantined twice');
    const first = await quarantineStory(app.ctx(), act(slug, 'Steps wipe the disk.'));
    expect(first).toMatchObject({ slug, action: 'quarantine', changed: true, state: 'quarantined' });
    const before = await app.state();
    app.advance(1);
    const second = await quarantineStory(app.ctx(), act(slug, 'Steps wipe the disk.'));
    expect(second).toMatchObject({ changed: false, state: 'quarantined', since: first.since });
    expect(await app.state()).toEqual(before);
    expect(await auditOf(slug)).toHaveLength(1);
  });

  it('16 parallel runs hold the story once: one audit record, one notification, one queue entry', async () => {
    const slug = await published('Quarantined sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => quarantineStory(app.ctx(), act(slug, 'Spam links.'))));
    expect(answers.filter((answer) => answer.changed)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.since)).size).toBe(1);
    expect(await auditOf(slug)).toHaveLength(1);
    expect(await storyAudit(slug)).toHaveLength(1);
    expect((await authorInbox(slug)).filter((n) => n.kind === 'moderation')).toHaveLength(1);
    expect(await queued(slug)).toHaveLength(1);
  });

  it('--op-id replayed after a restore answers the first answer and changes nothing', async () => {
    const slug = await published('Quarantine replayed');
    const first = await quarantineStory(app.ctx(), act(slug, 'Impersonates a maintainer.', 'op-q-replay'));
    app.advance(1);
    await restoreStory(app.ctx(), act(slug, 'The author showed it is theirs.'));
    const before = await app.state();
    app.counter().reset();
    expect(await quarantineStory(app.ctx(), act(slug, 'Impersonates a maintainer.', 'op-q-replay'))).toEqual({ ...first, replayed: true });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });
});

describe('moderate restore is safe to run twice', () => {
  it('a second run changes nothing and writes no second audit record', async () => {
    const slug = await heldByFlags('Restored twice');
    const first = await restoreStory(app.ctx(), act(slug, 'Not spam: a real story.'));
    expect(first).toMatchObject({ changed: true, state: 'restored' });
    const before = await app.state();
    app.advance(1);
    expect(await restoreStory(app.ctx(), act(slug, 'Not spam: a real story.'))).toMatchObject({ changed: false, since: first.since });
    expect(await app.state()).toEqual(before);
    expect(await auditOf(slug)).toHaveLength(1);
  });

  it('16 parallel runs restore once: one audit record, one notification, off the queue', async () => {
    const slug = await heldByFlags('Restored sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => restoreStory(app.ctx(), act(slug, 'Reviewed: fine.'))));
    expect(answers.filter((answer) => answer.changed)).toHaveLength(1);
    expect(await auditOf(slug)).toHaveLength(1);
    expect((await authorInbox(slug)).filter((n) => n.kind === 'moderation' && String(n.text).includes('restored'))).toHaveLength(1);
    expect(await queued(slug)).toEqual([]);
  });

  it('--op-id replayed after a new hold answers the first answer and does not restore again', async () => {
    const slug = await heldByFlags('Restore replayed');
    const first = await restoreStory(app.ctx(), act(slug, 'Reviewed: fine.', 'op-r-replay'));
    app.advance(1);
    await quarantineStory(app.ctx(), act(slug, 'It came back with spam.'));
    const before = await app.state();
    expect(await restoreStory(app.ctx(), act(slug, 'Reviewed: fine.', 'op-r-replay'))).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
  });
});

describe('what a restore does', () => {
  it('lists the story again, tells its author with the reason, writes who/when/why/what, and further flags never hold it again', async () => {
    const slug = await heldByFlags('Restored and listed');
    expect((await refusal(getStory(app.ctx(), erin, { slug }))).code).toBe('not_found');
    const restored = await restoreStory(app.ctx(), act(slug, 'Reviewed: a real story, not spam.'));

    expect(await storyMeta(slug)).toMatchObject({ hidden: false, [INDEXES.feed.partition]: expect.any(String) });
    expect((await getStory(app.ctx(), erin, { slug })).slug).toBe(slug);
    expect((await getStory(app.ctx(), alice, { slug })).moderation).toMatchObject({
      state: 'restored',
      since: restored.since,
      reason: 'Reviewed: a real story, not spam.',
    });
    const notice = (await authorInbox(slug)).filter((n) => n.kind === 'moderation').map((n) => n.text);
    expect(notice).toEqual(expect.arrayContaining([expect.stringContaining('restored after review: Reviewed: a real story, not spam.')]));
    expect(await auditOf(slug)).toEqual([
      expect.objectContaining({
        action: 'restore',
        actor: ACTOR,
        reason: 'Reviewed: a real story, not spam.',
        target_kind: 'story',
        target: slug,
        changes: { hidden: [true, false], moderation: ['quarantined', 'restored'] },
        at: restored.since,
      }),
    ]);

    await flagStory(app.ctx(), erin, { slug, reason: 'spam' });
    expect(await storyMeta(slug)).toMatchObject({ hidden: false, flag_count: 4, moderation: { state: 'restored' } });
  });

  it('a story never held is conflict (not retryable), an unknown one not_found, a reason holding a secret is refused; nothing written', async () => {
    const slug = await published('Never held');
    const before = await app.state();
    expect(await refusal(restoreStory(app.ctx(), act(slug, 'No.')))).toMatchObject({ code: 'conflict', retryable: false });
    expect((await refusal(restoreStory(app.ctx(), act('2026-01-01-no-such-story', 'No.')))).code).toBe('not_found');
    expect((await refusal(quarantineStory(app.ctx(), act(slug, `Key: ${SECRET}`)))).code).toBe('secret_detected');
    expect((await refusal(quarantineStory(app.ctx(), act(slug, '   ')))).code).toBe('validation_failed');
    expect(await app.state()).toEqual(before);
  });
});

describe('a restore and a new flag, in either order', () => {
  /** What both orders must agree on: the story restored, listed, counted once more, not held again. */
  const outcome = async (slug: string) => {
    const meta = await storyMeta(slug);
    const moderation = meta.moderation as Record<string, unknown>;
    return {
      hidden: meta.hidden,
      listed: meta[INDEXES.feed.partition] !== undefined,
      flag_count: meta.flag_count,
      state: moderation.state,
    };
  };

  it('the flag landing after the restore, or read before an operator hold and restore and committed after, ends the same', async () => {
    // Order 1: the restore lands, then the flag.
    const first = await published('Restore, then a flag');
    for (const reader of [bob, carol]) await flagStory(app.ctx(), reader, { slug: first, reason: 'spam' });
    await quarantineStory(app.ctx(), act(first, 'Held early.'));
    app.advance(1);
    await restoreStory(app.ctx(), act(first, 'Fine after all.'));
    await flagStory(app.ctx(), dave, { slug: first, reason: 'spam' });

    // Order 2: the third flag reads the story listed with two counts, then the hold and the
    // restore both land before it commits; its threshold write must not hold the story again.
    const second = await published('A flag, then a restore');
    for (const reader of [bob, carol]) await flagStory(app.ctx(), reader, { slug: second, reason: 'spam' });
    let landed = false;
    const racing = {
      ...app.ctx(),
      beforeCommit: async () => {
        if (landed) return;
        landed = true;
        await quarantineStory(app.ctx(), act(second, 'Held early.'));
        app.advance(1);
        await restoreStory(app.ctx(), act(second, 'Fine after all.'));
      },
    };
    await flagStory(racing, dave, { slug: second, reason: 'spam' });

    expect(landed).toBe(true);
    expect(await outcome(first)).toEqual({ hidden: false, listed: true, flag_count: 3, state: 'restored' });
    expect(await outcome(second)).toEqual(await outcome(first));
  });
});

describe('appeal_moderation is safe to deliver twice', () => {
  it('the same appeal twice answers the same and writes nothing', async () => {
    const slug = await heldByFlags('Appealed twice');
    const first = await appealModeration(app.ctx(), alice, { slug, note: 'It is a real build log.' });
    const before = await app.state();
    app.counter().reset();
    expect(await appealModeration(app.ctx(), alice, { slug, note: 'It is a real build log.' })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel appeals record one: one queue entry, the appeal on the hold', async () => {
    const slug = await heldByFlags('Appealed sixteen times at once');
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => appealModeration(app.ctx(), alice, { slug, note: 'Not spam: I wrote it.' })),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await queued(slug)).toEqual([expect.objectContaining({ kind: 'appeal', note: 'Not spam: I wrote it.', at: answers[0]?.at })]);
  });

  it('an op_id replay after the restore answers the first answer and changes nothing', async () => {
    const slug = await heldByFlags('Appeal replayed');
    const first = await appealModeration(app.ctx(), alice, { slug, note: 'Please look again.', op_id: 'op-appeal-1' });
    app.advance(1);
    await restoreStory(app.ctx(), act(slug, 'Looked again: fine.'));
    const before = await app.state();
    expect(await appealModeration(app.ctx(), alice, { slug, note: 'Please look again.', op_id: 'op-appeal-1' })).toEqual({
      ...first,
      replayed: true,
    });
    expect(await app.state()).toEqual(before);
  });
});

describe('who may appeal, and what the operator sees', () => {
  it('only the author, only while held, once per hold; the appeal shows in the queue, in show, and to the author', async () => {
    const slug = await heldByFlags('Appealed once');
    const before = await app.state();
    expect((await refusal(appealModeration(app.ctx(), erin, { slug, note: 'Let it back.' }))).code).toBe('not_found');
    expect((await refusal(appealModeration(app.ctx(), alice, { slug, note: 'x'.repeat(281) }))).code).toBe('validation_failed');
    expect((await refusal(appealModeration(app.ctx(), alice, { slug, note: `My key: ${SECRET}` }))).code).toBe('secret_detected');
    expect(await app.state()).toEqual(before);

    const appeal = await appealModeration(app.ctx(), alice, { slug, note: 'A real build log, not spam.' });
    expect(await refusal(appealModeration(app.ctx(), alice, { slug, note: 'Another try.' }))).toMatchObject({
      code: 'conflict',
      retryable: false,
      details: { reason: 'already_appealed' },
    });
    expect((await reviewQueue(app.ctx(), 200)).find((entry) => entry.slug === slug)).toMatchObject({
      kind: 'appeal',
      note: 'A real build log, not spam.',
    });
    expect((await moderationRecord(app.ctx(), slug)).moderation?.appeal).toEqual({ note: appeal.note, at: appeal.at });
    expect((await getStory(app.ctx(), alice, { slug })).moderation?.appealed).toEqual({ note: appeal.note, at: appeal.at });

    await restoreStory(app.ctx(), act(slug, 'Appeal upheld.'));
    expect(await queued(slug)).toEqual([]);
    expect(await refusal(appealModeration(app.ctx(), alice, { slug, note: 'A real build log, not spam.' }))).toMatchObject({
      code: 'conflict',
      details: { reason: 'not_held' },
    });
    const unheld = await published('Not held, not appealable');
    expect((await refusal(appealModeration(app.ctx(), alice, { slug: unheld, note: 'Why?' }))).details).toMatchObject({
      reason: 'not_held',
    });
  });
});
