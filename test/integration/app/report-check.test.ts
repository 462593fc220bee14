import { describe, expect, it } from 'vitest';
import { reportCheck } from '../../../src/app/report-check.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('report-check');
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
const { published, storyMeta, checkReport } = storySetup(app, alice);

async function checkCounts(slug: string): Promise<Record<string, number>> {
  const counts = (await storyMeta(slug)).counts as Record<string, number>;
  return { has_problem: counts.has_problem as number, no_problem: counts.no_problem as number };
}

describe('report_check is safe to deliver twice', () => {
  it('a second identical check answers the same and writes nothing', async () => {
    const slug = await published('Checked twice');
    const first = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'Found two read-then-write paths.' });
    expect(first).toEqual({ slug, result: 'has_problem', counted: true, checks: { has_problem: 1, no_problem: 0 } });
    const before = await app.state();
    app.counter().reset();
    const second = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'Found two read-then-write paths.' });
    console.log('identical check round trips', app.counter().snapshot());
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel first checks count once and all answer the same', async () => {
    const slug = await published('Sixteen checks at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => reportCheck(app.ctx(), bob, { slug, result: 'no_problem' })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toEqual({ slug, result: 'no_problem', counted: true, checks: { has_problem: 0, no_problem: 1 } });
    expect(await checkCounts(slug)).toEqual({ has_problem: 0, no_problem: 1 });
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const slug = await published('Check replayed later');
    const first = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-check-1' });
    await reportCheck(app.ctx(), bob, { slug, result: 'no_problem' });
    const before = await app.state();
    app.counter().reset();
    const replay = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-check-1' });
    console.log('check replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('the same op_id with different arguments is idempotency_key_reused and writes nothing', async () => {
    const slug = await published('Check op reused');
    await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-check-reused' });
    const before = await app.allItems();
    const error = await refusal(reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'other', op_id: 'op-check-reused' }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('one op_id used by two callers is two independent checks', async () => {
    const slug = await published('Check op shared by two');
    const fromBob = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-check-shared' });
    const fromCarol = await reportCheck(app.ctx(), carol, { slug, result: 'has_problem', op_id: 'op-check-shared' });
    expect(fromBob.replayed).toBeUndefined();
    expect(fromCarol).toEqual({ slug, result: 'has_problem', counted: true, checks: { has_problem: 2, no_problem: 0 } });
    expect(await checkCounts(slug)).toEqual({ has_problem: 2, no_problem: 0 });
  });

  it('with an op_id, an identical check whose check changed after the read is re-planned, never recorded stale', async () => {
    const slug = await published('Identical check raced');
    await reportCheck(app.ctx(), bob, { slug, result: 'has_problem' });
    afterNextRead(app.ctx(), () => reportCheck(app.ctx(), bob, { slug, result: 'no_problem' }));
    const answer = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-check-raced' });
    expect(answer.checks).toEqual({ has_problem: 1, no_problem: 0 });
    expect(await checkReport(slug, bob.account)).toMatchObject({ result: 'has_problem' });
    expect(await checkCounts(slug)).toEqual({ has_problem: 1, no_problem: 0 });
  });
});

describe('report_check keeps one check per account', () => {
  it("the author's own check is kept uncounted and notifies nobody", async () => {
    const slug = await published('Checked by its author');
    const answer = await reportCheck(app.ctx(), alice, { slug, result: 'has_problem' });
    expect(answer).toEqual({ slug, result: 'has_problem', counted: false, checks: { has_problem: 0, no_problem: 0 } });
    const changed = await reportCheck(app.ctx(), alice, { slug, result: 'no_problem' });
    expect(changed).toEqual({ ...answer, result: 'no_problem' });
    expect(await checkReport(slug, alice.account)).toMatchObject({ result: 'no_problem', counted: false });
    expect(await checkCounts(slug)).toEqual({ has_problem: 0, no_problem: 0 });
  });

  it('a later check replaces the earlier one and moves exactly one count; checks notify nobody', async () => {
    const slug = await published('Check changed once');
    await reportCheck(app.ctx(), bob, { slug, result: 'has_problem' });
    const changed = await reportCheck(app.ctx(), bob, { slug, result: 'no_problem', note: 'Fixed it since.' });
    expect(changed).toEqual({ slug, result: 'no_problem', counted: true, checks: { has_problem: 0, no_problem: 1 } });
    expect(await checkCounts(slug)).toEqual({ has_problem: 0, no_problem: 1 });
    expect(await checkReport(slug, bob.account)).toMatchObject({ result: 'no_problem', note: 'Fixed it since.' });
    const inbox = (await app.state()).filter((item) => String(item.PK).startsWith('INBOX#') && item.story === slug);
    expect(inbox).toEqual([]);
  });

  it('a changed note with the same result moves no count', async () => {
    const slug = await published('Check note changed');
    await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'one' });
    const answer = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'two' });
    expect(answer.checks).toEqual({ has_problem: 1, no_problem: 0 });
    expect(await checkCounts(slug)).toEqual({ has_problem: 1, no_problem: 0 });
    expect(await checkReport(slug, bob.account)).toMatchObject({ note: 'two' });
  });

  it('two checkers arriving in either order end with the same counts', async () => {
    const first = await published('Check order bob then carol');
    const second = await published('Check order carol then bob');
    await reportCheck(app.ctx(), bob, { slug: first, result: 'has_problem' });
    await reportCheck(app.ctx(), carol, { slug: first, result: 'no_problem' });
    await reportCheck(app.ctx(), carol, { slug: second, result: 'no_problem' });
    await reportCheck(app.ctx(), bob, { slug: second, result: 'has_problem' });
    expect(await checkCounts(first)).toEqual({ has_problem: 1, no_problem: 1 });
    expect(await checkCounts(second)).toEqual(await checkCounts(first));
  });

  it('two devices of one account changing the same check at once never subtract twice', async () => {
    const slugs = await Promise.all([1, 2, 3, 4].map((n) => published(`Two devices check ${n}`)));
    for (const slug of slugs) await reportCheck(app.ctx(), bob, { slug, result: 'has_problem' });
    await Promise.all(
      slugs.flatMap((slug) => [
        reportCheck(app.ctx(), bob, { slug, result: 'no_problem' }),
        reportCheck(app.ctx(), bob, { slug, result: 'no_problem', note: 'from the phone' }),
      ]),
    );
    for (const slug of slugs) expect(await checkCounts(slug)).toEqual({ has_problem: 0, no_problem: 1 });
  });

  it('a change that lands after another device changed the check is re-planned from the new result', async () => {
    const slug = await published('Check changed under a device');
    await reportCheck(app.ctx(), bob, { slug, result: 'has_problem' });
    afterNextRead(app.ctx(), () => reportCheck(app.ctx(), bob, { slug, result: 'no_problem' }));
    const answer = await reportCheck(app.ctx(), bob, { slug, result: 'has_problem', note: 'back again' });
    expect(answer.checks).toEqual({ has_problem: 1, no_problem: 0 });
    expect(await checkCounts(slug)).toEqual({ has_problem: 1, no_problem: 0 });
  });

  it('64 distinct accounts checking in parallel count exactly 64', async () => {
    const slug = await published('Sixty-four checkers');
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        reportCheck(app.ctx(), caller(`checker-${i}`), { slug, result: i % 2 === 0 ? 'has_problem' : 'no_problem' }),
      ),
    );
    expect(await checkCounts(slug)).toEqual({ has_problem: 32, no_problem: 32 });
  });
});

describe('report_check refuses what it cannot take, writing nothing', () => {
  it.each(['not_applicable', 'n/a', 'Not applicable'])('"%s" is refused with a message not to call report_check', async (result) => {
    const slug = await published('Check not applicable');
    const before = await app.allItems();
    const error = await refusal(reportCheck(app.ctx(), bob, { slug, result }));
    expect(error.code).toBe('validation_failed');
    expect(JSON.stringify(error.details)).toContain('Do not call report_check');
    expect(await app.allItems()).toEqual(before);
  });

  it.each([
    ['an unknown result', { result: 'maybe' }],
    ['a missing result', { result: undefined }],
    ['a note over 2000 characters', { note: 'x'.repeat(2001) }],
    ['an unknown field', { agent: 'claude' }],
    ['a slug that is not a slug', { slug: '../etc' }],
    ['a malformed op_id', { op_id: '' }],
  ])('%s is validation_failed', async (_name, change) => {
    const slug = await published('Bad check input');
    const before = await app.allItems();
    const error = await refusal(reportCheck(app.ctx(), bob, { slug, result: 'has_problem', ...change }));
    expect(error.code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });

  it('a check on a story without a check section is a non-retryable conflict', async () => {
    const slug = await published('Story without a check', { check: false });
    const before = await app.allItems();
    const error = await refusal(reportCheck(app.ctx(), bob, { slug, result: 'has_problem', op_id: 'op-no-check' }));
    expect(error.code).toBe('conflict');
    expect(error.retryable).toBe(false);
    expect(await app.allItems()).toEqual(before);
  });

  it('a check on a private story by someone else is not_found and writes nothing', async () => {
    const slug = await published('Private check target', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(reportCheck(app.ctx(), bob, { slug, result: 'has_problem' }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });
});
