import { describe, expect, it } from 'vitest';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { withdrawReproduction } from '../../../src/app/withdraw-reproduction.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('withdraw-reproduction');
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
const { published, storyMeta, reproduction } = storySetup(app, alice);

const zero = { worked: 0, partial: 0, failed: 0 };

describe('withdraw_reproduction is safe to deliver twice', () => {
  it('a second withdraw answers exactly as the first and writes nothing', async () => {
    const slug = await published('Withdrawn twice');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await reportReproduction(app.ctx(), carol, { slug, result: 'failed' });
    const first = await withdrawReproduction(app.ctx(), bob, { slug });
    expect(first).toEqual({ slug, withdrawn: true, counts: { worked: 0, partial: 0, failed: 1 }, reproducers_count: 1 });
    const before = await app.state();
    app.counter().reset();
    const second = await withdrawReproduction(app.ctx(), bob, { slug });
    console.log('second withdraw round trips', app.counter().snapshot());
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel withdraws take the count back once and all answer the same', async () => {
    const slug = await published('Sixteen withdraws at once');
    await reportReproduction(app.ctx(), bob, { slug, result: 'partial' });
    await reportReproduction(app.ctx(), carol, { slug, result: 'partial' });
    const answers = await Promise.all(Array.from({ length: 16 }, () => withdrawReproduction(app.ctx(), bob, { slug })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toEqual({ slug, withdrawn: true, counts: { worked: 0, partial: 1, failed: 0 }, reproducers_count: 1 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 1, failed: 0 }, reproducers: [carol.account] });
    expect(await reproduction(slug, bob.account)).toBeUndefined();
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const slug = await published('Withdraw replayed later');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    const first = await withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-1' });
    await reportReproduction(app.ctx(), bob, { slug, result: 'failed' });
    const before = await app.state();
    app.counter().reset();
    const replay = await withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-1' });
    console.log('withdraw replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(await reproduction(slug, bob.account)).toMatchObject({ result: 'failed' });
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('the same op_id with different arguments is idempotency_key_reused and writes nothing', async () => {
    const slug = await published('Withdraw op reused');
    const other = await published('Withdraw op reused elsewhere');
    await reportReproduction(app.ctx(), bob, { slug: other, result: 'worked' });
    await withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-reused' });
    const before = await app.allItems();
    const error = await refusal(withdrawReproduction(app.ctx(), bob, { slug: other, op_id: 'op-withdraw-reused' }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('one op_id used by two callers withdraws each one of them', async () => {
    const slug = await published('Withdraw op shared by two');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await reportReproduction(app.ctx(), carol, { slug, result: 'worked' });
    const fromBob = await withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-shared' });
    const fromCarol = await withdrawReproduction(app.ctx(), carol, { slug, op_id: 'op-withdraw-shared' });
    expect(fromBob).toMatchObject({ counts: { worked: 1 }, reproducers_count: 1 });
    expect(fromBob.replayed).toBeUndefined();
    expect(fromCarol).toEqual({ slug, withdrawn: true, counts: zero, reproducers_count: 0 });
    expect(fromCarol.replayed).toBeUndefined();
  });

  it('with an op_id, a withdraw that found nothing re-plans when a report lands before it commits', async () => {
    const slug = await published('Withdraw raced by a report');
    afterNextRead(app.ctx(), () => reportReproduction(app.ctx(), bob, { slug, result: 'worked' }));
    const answer = await withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-raced' });
    expect(answer).toEqual({ slug, withdrawn: true, counts: zero, reproducers_count: 0 });
    expect(await reproduction(slug, bob.account)).toBeUndefined();
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0 } });
  });
});

describe('withdraw_reproduction takes back exactly the count it gave', () => {
  it('a withdraw after a change takes back the changed result', async () => {
    const slug = await published('Withdraw after a change');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await reportReproduction(app.ctx(), bob, { slug, result: 'failed' });
    const answer = await withdrawReproduction(app.ctx(), bob, { slug });
    expect(answer.counts).toEqual(zero);
    const meta = await storyMeta(slug);
    expect(meta.counts).toMatchObject(zero);
    expect(meta.reproducers).toBeUndefined();
  });

  it('a withdraw that lands after another device changed the report takes back the new result', async () => {
    const slug = await published('Withdraw under a change');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    afterNextRead(app.ctx(), () => reportReproduction(app.ctx(), bob, { slug, result: 'failed' }));
    const answer = await withdrawReproduction(app.ctx(), bob, { slug });
    expect(answer.counts).toEqual(zero);
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0 } });
    expect(await reproduction(slug, bob.account)).toBeUndefined();
  });

  it("withdrawing the author's own uncounted report moves no count", async () => {
    const slug = await published('Author withdraws own report');
    await reportReproduction(app.ctx(), bob, { slug, result: 'partial' });
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    const answer = await withdrawReproduction(app.ctx(), alice, { slug });
    expect(answer).toEqual({ slug, withdrawn: true, counts: { worked: 0, partial: 1, failed: 0 }, reproducers_count: 1 });
    expect(await reproduction(slug, alice.account)).toBeUndefined();
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 1, failed: 0 }, reproducers: [bob.account] });
  });

  it('a report after a withdraw counts again, once', async () => {
    const slug = await published('Report again after withdraw');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await withdrawReproduction(app.ctx(), bob, { slug });
    const again = await reportReproduction(app.ctx(), bob, { slug, result: 'partial' });
    expect(again).toMatchObject({ counts: { worked: 0, partial: 1, failed: 0 }, reproducers_count: 1 });
  });
});

describe('withdraw_reproduction refuses what it cannot take, writing nothing', () => {
  it.each([
    ['a slug that is not a slug', { slug: 'nope' }],
    ['a missing slug', { slug: undefined }],
    ['an unknown field', { result: 'worked' }],
    ['a malformed op_id', { op_id: 'x'.repeat(200) }],
  ])('%s is validation_failed', async (_name, change) => {
    const slug = await published('Bad withdraw input');
    const before = await app.allItems();
    const error = await refusal(withdrawReproduction(app.ctx(), bob, { slug, ...change }));
    expect(error.code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });

  it('a withdraw on a private story by someone else is not_found and writes nothing', async () => {
    const slug = await published('Private withdraw target', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(withdrawReproduction(app.ctx(), bob, { slug, op_id: 'op-withdraw-private' }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });
});
