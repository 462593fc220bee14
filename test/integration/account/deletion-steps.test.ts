// Account deletion's bounded steps one at a time (design.md#account-deletion, src/app/account/deletion-step.ts):
// what each step says it did and what the event records, the grace to the millisecond, a story
// with more items than one step holds, two workers on one step, the keyed items (a handle claimed
// since by another account stays), and a run that dies mid-way resumed to the same end.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { runDeletionStep, STEP_ITEMS, type StepResult } from '../../../src/app/account/deletion-step.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { DEFAULT_APP_CONFIG } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { putBlueskySession } from '../../../src/store/identity/bluesky-session-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { operationName } from '../../helpers/round-trips.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('deletion-steps', { newAccountHours: 0 });
const GRACE_MS = DEFAULT_APP_CONFIG.accountDeletionGraceSeconds * 1000;

const mentions = (item: Record<string, unknown>, account: string): boolean => JSON.stringify(item).includes(account);
const eventOf = async (account: string) =>
  (await app.allItems()).find((item) => item.PK === 'OUTBOX' && item.SK === `account-deletion#${account}`);

/** Steps until no step has work left (the grace not yet over): every step's own answer. */
async function stepsUntilWaiting(account: string): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (let step = 0; step < 500; step += 1) {
    const result = await runDeletionStep(app.ctx(), account);
    results.push(result);
    if (result.kind !== 'step') return results;
  }
  throw new Error('the deletion did not run out of work in 500 steps');
}

describe('a deletion step says what it did, and the event counts exactly that', () => {
  it('an account not being deleted has no step to run', async () => {
    const ida = caller('ida');
    await ensureAccount(app.ctx(), ida);
    const before = await app.allItems();
    expect(await runDeletionStep(app.ctx(), ida.account)).toEqual({ kind: 'none' });
    expect(await app.allItems()).toEqual(before);
  });

  it('the first step tombstones the story and names it; the event holds the steps, the items deleted and the phase of the last step', async () => {
    const abe = caller('abe');
    const bea = caller('bea');
    const slug = (await publishStory(app.ctx(), abe, { markdown: storyTitled('Abe counts his steps') })).slug;
    const beas = (await publishStory(app.ctx(), bea, { markdown: storyTitled('Bea is reproduced by Abe') })).slug;
    await reportReproduction(app.ctx(), abe, { slug: beas, result: 'worked' });
    await deleteAccount(app.ctx(), abe, { confirm: 'abe.test' });

    const results = await stepsUntilWaiting(abe.account);
    expect(results[0]).toEqual({ kind: 'step', phase: 'stories', deleted: 1, tombstoned: slug });
    // Only the tombstoning step names a story: the steps that empty it and drop its author do not.
    for (const later of results.slice(1)) expect(later).not.toHaveProperty('tombstoned');
    const steps = results.filter((result) => result.kind === 'step');
    expect(steps.map((step) => step.phase)).toEqual(expect.arrayContaining(['stories', 'reports', 'owned']));
    expect(results.at(-1)).toMatchObject({ kind: 'waiting' });

    const event = await eventOf(abe.account);
    const last = steps.at(-1);
    expect(event).toMatchObject({
      steps: steps.length,
      deleted: steps.reduce((sum, step) => sum + step.deleted, 0),
      phase: last?.phase,
    });
    // The reports phase withdrew his reproduction of bea's story (the report and its count on her
    // story) and dropped his pointer to it: three items written, in one step.
    expect(steps.find((step) => step.phase === 'reports')).toEqual({ kind: 'step', phase: 'reports', deleted: 3 });
  });
});

describe('the last step waits for the grace, to the millisecond', () => {
  it('waiting until the request time plus the grace; one millisecond before, still waiting; at it, finished', async () => {
    app.freeze();
    const cal = caller('cal');
    await publishStory(app.ctx(), cal, { markdown: storyTitled('Cal waits for the grace') });
    const requestedAt = app.ctx().store.now();
    await deleteAccount(app.ctx(), cal, { confirm: 'cal.test' });

    const results = await stepsUntilWaiting(cal.account);
    expect(results.at(-1)).toEqual({ kind: 'waiting', until: requestedAt + GRACE_MS });
    const before = await app.allItems();
    app.advance(GRACE_MS - 1);
    expect(await runDeletionStep(app.ctx(), cal.account)).toEqual({ kind: 'waiting', until: requestedAt + GRACE_MS });
    expect(await app.allItems()).toEqual(before);
    app.advance(1);
    expect(await runDeletionStep(app.ctx(), cal.account)).toEqual({ kind: 'finished' });
    expect(await eventOf(cal.account)).toBeUndefined();
    expect((await app.allItems()).filter((item) => mentions(item, cal.account))).toEqual([
      { PK: `ACCOUNT#${cal.account}`, SK: 'META', id: cal.account, deleted_at: new Date(requestedAt + GRACE_MS).toISOString() },
    ]);
    // Deleted, the account has no step left.
    expect(await runDeletionStep(app.ctx(), cal.account)).toEqual({ kind: 'none' });
  });
});

describe('a story with more items than one step holds', () => {
  it(`is emptied ${STEP_ITEMS} items a step at most, then its author dropped, then nothing of it but the tombstone is left`, async () => {
    const dan = caller('dan');
    const slug = (await publishStory(app.ctx(), dan, { markdown: storyTitled('Dan has many children') })).slug;
    const extra = STEP_ITEMS + 10;
    for (let start = 0; start < extra; start += 25) {
      await writeAtomically(
        app.ctx().store,
        Array.from({ length: Math.min(25, extra - start) }, (_, index) => ({
          Put: { Item: { PK: `STORY#${slug}`, SK: `CHILD#${String(start + index).padStart(3, '0')}`, author: dan.account } },
        })),
      );
    }
    const children = (await app.allItems()).filter((item) => item.PK === `STORY#${slug}` && item.SK !== 'META').length;
    expect(children).toBeGreaterThan(STEP_ITEMS);
    await deleteAccount(app.ctx(), dan, { confirm: 'dan.test' });

    const stories = (await stepsUntilWaiting(dan.account)).filter((result) => result.kind === 'step' && result.phase === 'stories');
    // Tombstone; a full page; the rest; the author dropped (no item deleted).
    expect(stories.map((step) => step.kind === 'step' && step.deleted)).toEqual([1, STEP_ITEMS, children - STEP_ITEMS, 0]);
    expect((await app.allItems()).filter((item) => item.PK === `STORY#${slug}`).map((item) => item.SK)).toEqual(['META']);
    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), dan.account, 10)).toMatchObject({ finished: true });
  });
});

describe('two workers on one step: one commits it, the other is told it raced and commits nothing', () => {
  it('the worker whose read was overtaken answers raced, and the event counts one step', async () => {
    const eve = caller('eve');
    const slug = (await publishStory(app.ctx(), eve, { markdown: storyTitled('Eve is deleted twice at once') })).slug;
    await deleteAccount(app.ctx(), eve, { confirm: 'eve.test' });
    let competing: StepResult | undefined;
    afterNextRead(
      app.ctx(),
      async () => {
        competing = await runDeletionStep(app.ctx(), eve.account);
      },
      'GetItem',
    );
    const overtaken = await runDeletionStep(app.ctx(), eve.account);
    expect(competing).toEqual({ kind: 'step', phase: 'stories', deleted: 1, tombstoned: slug });
    expect(overtaken).toEqual({ kind: 'raced' });
    expect(await eventOf(eve.account)).toMatchObject({ steps: 1, deleted: 1, phase: 'stories' });
    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), eve.account, 100)).toMatchObject({ finished: true });
  });
});

describe('the items keyed by the DID or the handle', () => {
  it('the Bluesky session and the handle item go; a handle item another account claimed since stays', async () => {
    const fay = caller('fay');
    const gus = caller('gus');
    const now = app.ctx().store.now();
    for (const person of [fay, gus]) {
      await ensureAccount(app.ctx(), person);
      await writeAtomically(app.ctx().store, [
        putBlueskySession({ did: person.account, session_data: '{}', updated_at: new Date(now).toISOString(), expires_at: 4_000_000_000 }),
      ]);
    }
    const handleItem = (handle: string, account: string) => ({
      Put: { Item: { PK: `HANDLE#${handle}`, SK: 'META', handle, account, created_at: new Date(now).toISOString() } },
    });
    // fay's handle still points to her; gus's handle was taken by another account meanwhile.
    await writeAtomically(app.ctx().store, [handleItem(fay.handle, fay.account), handleItem(gus.handle, 'acct-newcomer')]);
    for (const person of [fay, gus]) await deleteAccount(app.ctx(), person, { confirm: person.handle });

    const fays = await stepsUntilWaiting(fay.account);
    expect(fays.find((step) => step.kind === 'step' && step.phase === 'keyed')).toEqual({ kind: 'step', phase: 'keyed', deleted: 2 });
    const guss = await stepsUntilWaiting(gus.account);
    expect(guss.find((step) => step.kind === 'step' && step.phase === 'keyed')).toEqual({ kind: 'step', phase: 'keyed', deleted: 1 });

    const items = await app.allItems();
    expect(items.filter((item) => String(item.PK).startsWith('BSKYSESS#'))).toEqual([]);
    expect(items.filter((item) => String(item.PK).startsWith('HANDLE#'))).toEqual([
      expect.objectContaining({ PK: `HANDLE#${gus.handle}`, account: 'acct-newcomer' }),
    ]);
    app.advance(GRACE_MS);
    for (const person of [fay, gus]) expect(await deleteAccountSteps(app.ctx(), person.account, 10)).toMatchObject({ finished: true });
  });
});

describe('account deletion resumes after a crash mid-run', () => {
  it('a step whose write never reached the store throws (it did not race); the next run ends as one clean deletion', async () => {
    const hub = caller('hub');
    const ivy = caller('ivy');
    const ivys = (await publishStory(app.ctx(), ivy, { markdown: storyTitled('Ivy is reproduced by Hub') })).slug;
    await publishStory(app.ctx(), hub, { markdown: storyTitled('Hub crashes mid-deletion') });
    await reportReproduction(app.ctx(), hub, { slug: ivys, result: 'worked' });
    await deleteAccount(app.ctx(), hub, { confirm: 'hub.test' });
    expect(await runDeletionStep(app.ctx(), hub.account)).toMatchObject({ kind: 'step', phase: 'stories' });

    // The next step's transaction is lost on the way (a dropped connection): an error, not a race.
    const stack = app.ctx().store.client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (operationName(String(context.commandName)) !== 'TransactWriteItems') return next(args);
        stack.remove('lorebookLoseOneWrite');
        throw Object.assign(new Error('socket hang up (injected)'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });
      },
      { step: 'initialize', name: 'lorebookLoseOneWrite' },
    );
    const crashed = await runDeletionStep(app.ctx(), hub.account).catch((error: unknown) => error);
    expect(crashed).toMatchObject({ code: 'store_unavailable' });
    expect(await eventOf(hub.account)).toMatchObject({ steps: 1 });

    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), hub.account, 1000)).toMatchObject({ finished: true });
    const items = await app.allItems();
    expect(items.filter((item) => mentions(item, hub.account) && !String(item.PK).startsWith(`INBOX#${ivy.account}`))).toEqual([
      { PK: `ACCOUNT#${hub.account}`, SK: 'META', id: hub.account, deleted_at: expect.any(String) },
    ]);
    expect(items.find((item) => item.PK === `STORY#${ivys}` && item.SK === 'META')).toMatchObject({ counts: { worked: 0 } });
  });
});
