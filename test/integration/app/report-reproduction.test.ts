import { describe, expect, it } from 'vitest';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import type { LorebookError } from '../../../src/domain/errors.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('report-reproduction');
const capped = useAppFixture('report-reproduction-cap', { reproducerCap: 2 });
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
// Stories by alice, on the main table and on the one with a reproducer cap.
const { published, storyMeta, reproduction, authorInbox } = storySetup(app, alice);
const cappedStories = storySetup(capped, alice);

describe('report_reproduction is safe to deliver twice', () => {
  it('a second identical report answers the same and writes nothing', async () => {
    const slug = await published('Reported twice');
    const first = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', note: 'Ran it on Lambda.' });
    const before = await app.state();
    app.counter().reset();
    const second = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', note: 'Ran it on Lambda.' });
    console.log('identical report round trips', app.counter().snapshot());
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(first).toEqual({ slug, result: 'worked', counted: true, counts: { worked: 1, partial: 0, failed: 0 }, reproducers_count: 1 });
    expect(await app.state()).toEqual(before);
  });

  it('an identical report with other measurements costs no write and keeps the first measurements', async () => {
    const slug = await published('Measured twice');
    const first = await reportReproduction(app.ctx(), bob, { slug, result: 'partial', duration_min: 5, tokens: 1200 });
    const before = await app.state();
    app.counter().reset();
    const second = await reportReproduction(app.ctx(), bob, { slug, result: 'partial', duration_min: 9.5, tokens: 4000 });
    console.log('identical report with new measurements round trips', app.counter().snapshot());
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(await reproduction(slug, bob.account)).toMatchObject({ duration_min: 5, tokens: 1200 });
  });

  it('16 parallel first reports count the account once, notify the author once and all answer the same', async () => {
    const slug = await published('Sixteen reports at once');
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => reportReproduction(app.ctx(), bob, { slug, result: 'worked', agent: 'claude' })),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ counts: { worked: 1, partial: 0, failed: 0 }, reproducers_count: 1 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 1, partial: 0, failed: 0 }, reproducers: [bob.account] });
    expect(await authorInbox(slug)).toHaveLength(1);
  });

  it('16 parallel deliveries of one op_id commit one report and the rest replay it', async () => {
    const slug = await published('Same report op sixteen times');
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => reportReproduction(app.ctx(), bob, { slug, result: 'failed', op_id: 'op-sixteen' })),
    );
    const withoutFlag = ({ replayed: _flag, ...answer }: (typeof answers)[number]) => answer;
    for (const answer of answers) expect(withoutFlag(answer)).toEqual(withoutFlag(answers[0]!));
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 1 }, reproducers: [bob.account] });
    expect(await authorInbox(slug)).toHaveLength(1);
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const slug = await published('Report replayed later');
    const first = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-report-1' });
    await reportReproduction(app.ctx(), bob, { slug, result: 'failed', note: 'Broke on the second run.' });
    const before = await app.state();
    app.counter().reset();
    const replay = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-report-1' });
    console.log('report replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('a replay that re-measured (other duration_min and tokens) is the same op and replays', async () => {
    const slug = await published('Report replayed with new measurements');
    const first = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', duration_min: 3, op_id: 'op-measured' });
    const replay = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', duration_min: 30, tokens: 7, op_id: 'op-measured' });
    expect(replay).toEqual({ ...first, replayed: true });
  });

  it('the same op_id with different arguments is idempotency_key_reused and writes nothing', async () => {
    const slug = await published('Report op reused');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-reused' });
    const before = await app.allItems();
    const error = await refusal(reportReproduction(app.ctx(), bob, { slug, result: 'partial', op_id: 'op-reused' }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('one op_id used by two callers is two independent reports', async () => {
    const slug = await published('Report op shared by two');
    const fromBob = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-shared' });
    const fromCarol = await reportReproduction(app.ctx(), carol, { slug, result: 'worked', op_id: 'op-shared' });
    expect(fromBob.replayed).toBeUndefined();
    expect(fromCarol.replayed).toBeUndefined();
    expect(fromCarol).toMatchObject({ counts: { worked: 2 }, reproducers_count: 2 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 2 }, reproducers: [bob.account, carol.account] });
  });

  it('with an op_id, an identical report whose report changed after the read is re-planned, never recorded stale', async () => {
    const slug = await published('Identical report raced');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    // Bob's other device changes the report to failed between this call's read and its write.
    afterNextRead(app.ctx(), () => reportReproduction(app.ctx(), bob, { slug, result: 'failed' }));
    const answer = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-raced-identical' });
    expect(answer).toMatchObject({ result: 'worked', counts: { worked: 1, partial: 0, failed: 0 } });
    expect(await reproduction(slug, bob.account)).toMatchObject({ result: 'worked' });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 1, partial: 0, failed: 0 } });
  });
});

describe('report_reproduction counts each account once', () => {
  it("the author's own report is stored uncounted, is not a reproducer and notifies nobody", async () => {
    const slug = await published('Reported by its author');
    const answer = await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    expect(answer).toEqual({ slug, result: 'worked', counted: false, counts: { worked: 0, partial: 0, failed: 0 }, reproducers_count: 0 });
    const changed = await reportReproduction(app.ctx(), alice, { slug, result: 'failed' });
    expect(changed).toEqual({ ...answer, result: 'failed' });
    expect(await reproduction(slug, alice.account)).toMatchObject({ result: 'failed', counted: false });
    const meta = await storyMeta(slug);
    expect(meta.counts).toMatchObject({ worked: 0, partial: 0, failed: 0 });
    expect(meta.reproducers).toBeUndefined();
    expect(await authorInbox(slug)).toEqual([]);
  });

  it('a changed report moves exactly one count, keeps one reproducer and tells the author about the change', async () => {
    const slug = await published('Report changed once');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    const changed = await reportReproduction(app.ctx(), bob, { slug, result: 'partial', note: 'Only on the second try.' });
    expect(changed).toEqual({ slug, result: 'partial', counted: true, counts: { worked: 0, partial: 1, failed: 0 }, reproducers_count: 1 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 1, failed: 0 }, reproducers: [bob.account] });
    expect(await reproduction(slug, bob.account)).toMatchObject({ result: 'partial', note: 'Only on the second try.', counted: true });
    const inbox = await authorInbox(slug);
    expect(inbox).toHaveLength(2);
    expect(inbox.map((n) => n.text)).toEqual([
      'bob.test reported "worked" reproducing "Report changed once".',
      'bob.test changed their report to "partial" on "Report changed once".',
    ]);
  });

  it('a changed note with the same result moves no count', async () => {
    const slug = await published('Report note changed');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked', note: 'first' });
    const answer = await reportReproduction(app.ctx(), bob, { slug, result: 'worked', note: 'second' });
    expect(answer.counts).toEqual({ worked: 1, partial: 0, failed: 0 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 1, partial: 0, failed: 0 } });
    expect(await reproduction(slug, bob.account)).toMatchObject({ note: 'second' });
  });

  it('two reproducers arriving in either order end with the same counts and reproducers', async () => {
    const first = await published('Arrival order bob then carol');
    const second = await published('Arrival order carol then bob');
    await reportReproduction(app.ctx(), bob, { slug: first, result: 'worked' });
    await reportReproduction(app.ctx(), carol, { slug: first, result: 'failed' });
    await reportReproduction(app.ctx(), carol, { slug: second, result: 'failed' });
    await reportReproduction(app.ctx(), bob, { slug: second, result: 'worked' });
    const a = await storyMeta(first);
    const b = await storyMeta(second);
    expect(a.counts).toEqual({ worked: 1, partial: 0, failed: 1, has_problem: 0, no_problem: 0 });
    expect(b.counts).toEqual(a.counts);
    expect(b.reproducers).toEqual(a.reproducers);
  });

  it('two devices of one account changing the same report at once never subtract twice', async () => {
    const slugs = await Promise.all([1, 2, 3, 4].map((n) => published(`Two devices race ${n}`)));
    for (const slug of slugs) await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await Promise.all(
      slugs.flatMap((slug) => [
        reportReproduction(app.ctx(), bob, { slug, result: 'partial' }),
        reportReproduction(app.ctx(), bob, { slug, result: 'failed' }),
      ]),
    );
    for (const slug of slugs) {
      const meta = await storyMeta(slug);
      const stored = await reproduction(slug, bob.account);
      const counts = meta.counts as { worked: number; partial: number; failed: number } & Record<string, number>;
      expect(counts.worked + counts.partial + counts.failed).toBe(1);
      expect(counts[String(stored?.result)]).toBe(1);
      expect(meta.reproducers).toEqual([bob.account]);
    }
  });

  it('a change that lands after another device changed the report is re-planned from the new result', async () => {
    const slug = await published('Report changed under a device');
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    afterNextRead(app.ctx(), () => reportReproduction(app.ctx(), bob, { slug, result: 'failed' }));
    const answer = await reportReproduction(app.ctx(), bob, { slug, result: 'partial' });
    expect(answer.counts).toEqual({ worked: 0, partial: 1, failed: 0 });
    expect(await storyMeta(slug)).toMatchObject({ counts: { worked: 0, partial: 1, failed: 0 }, reproducers: [bob.account] });
  });

  it('64 distinct accounts reporting in parallel count exactly 64 and notify the author 64 times', async () => {
    const slug = await published('Sixty-four reproducers');
    const accounts = Array.from({ length: 64 }, (_, i) => caller(`reproducer-${String(i).padStart(2, '0')}`));
    await Promise.all(accounts.map((who) => reportReproduction(app.ctx(), who, { slug, result: 'worked' })));
    const meta = await storyMeta(slug);
    expect(meta.counts).toMatchObject({ worked: 64, partial: 0, failed: 0 });
    expect(meta.reproducers).toEqual(accounts.map((who) => who.account).sort());
    expect(await authorInbox(slug)).toHaveLength(64);
  });
});

describe('report_reproduction past the reproducer cap', () => {
  it('a first report past the cap is a non-retryable conflict and nothing is written', async () => {
    const slug = await cappedStories.published('Capped story');
    await reportReproduction(capped.ctx(), bob, { slug, result: 'worked' });
    await reportReproduction(capped.ctx(), carol, { slug, result: 'failed' });
    const before = await capped.allItems();
    const error = await refusal(reportReproduction(capped.ctx(), caller('dave'), { slug, result: 'worked' }));
    expect(error.code).toBe('conflict');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('reproducer cap');
    expect(await capped.allItems()).toEqual(before);
    // A counted reproducer may still change their report at the cap.
    const changed = await reportReproduction(capped.ctx(), bob, { slug, result: 'partial' });
    expect(changed.counts).toEqual({ worked: 0, partial: 1, failed: 1 });
  });

  it('racing past the cap counts exactly up to it; the rest get the cap conflict', async () => {
    const slug = await cappedStories.published('Capped story raced');
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => reportReproduction(capped.ctx(), caller(`racer-${i}`), { slug, result: 'worked' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as LorebookError).message).toContain('reproducer cap');
    const meta = await cappedStories.storyMeta(slug);
    expect(meta.counts).toMatchObject({ worked: 2 });
    expect(meta.reproducers).toHaveLength(2);
    expect(await cappedStories.authorInbox(slug)).toHaveLength(2);
  });
});

describe('report_reproduction refuses what it cannot take, writing nothing', () => {
  it.each([
    ['an unknown result', { result: 'succeeded' }],
    ['a missing result', { result: undefined }],
    ['a note over 2000 characters', { note: 'x'.repeat(2001) }],
    ['an agent over 100 characters', { agent: 'x'.repeat(101) }],
    ['an env over 500 characters', { env: 'x'.repeat(501) }],
    ['a negative duration_min', { duration_min: -1 }],
    ['a duration_min over 100000', { duration_min: 100_001 }],
    ['fractional tokens', { tokens: 1.5 }],
    ['negative tokens', { tokens: -1 }],
    ['an unknown field', { mood: 'happy' }],
    ['a slug that is not a slug', { slug: 'Not A Slug' }],
    ['a malformed op_id', { op_id: 'has spaces' }],
  ])('%s is validation_failed', async (_name, change) => {
    const slug = await published('Bad report input');
    const before = await app.allItems();
    const error = await refusal(reportReproduction(app.ctx(), bob, { slug, result: 'worked', ...change }));
    expect(error.code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });

  it('a report on a private story by someone else is not_found and writes nothing', async () => {
    const slug = await published('Private to alice', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(reportReproduction(app.ctx(), bob, { slug, result: 'worked', op_id: 'op-private' }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it('a report on an unknown story is not_found', async () => {
    const error = await refusal(reportReproduction(app.ctx(), bob, { slug: '2026-10-14-no-such-story', result: 'worked' }));
    expect(error.code).toBe('not_found');
  });
});
