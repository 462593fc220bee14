// Account deletion (design.md#account-deletion): what one deletion leaves, twice-safety three ways, and writes by
// a deleting account refused, or found and deleted when it read the account before the mark.
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { DEFAULT_APP_CONFIG } from '../../../src/app/context/app-context.ts';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { readStoryPage } from '../../../src/app/queries/story-page.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { isLorebookError } from '../../../src/domain/errors.ts';
import { writeAccountWorld } from '../../helpers/account-world.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { storyTitled } from '../../helpers/stories.ts';

// The world's accounts are made a second before they report: established at once here (design.md#new-accounts).
const app = useAppFixture('account-deletion', { newAccountHours: 0 });

const mentions = (item: Record<string, unknown>, account: string): boolean => JSON.stringify(item).includes(account);

/** The last step waits this long after the request (design.md#account-deletion): the tests move the store's clock past it. */
const GRACE_MS = DEFAULT_APP_CONFIG.accountDeletionGraceSeconds * 1000;

async function deleteToTheEnd(account: string): Promise<number> {
  app.advance(GRACE_MS);
  const run = await deleteAccountSteps(app.ctx(), account, 10_000);
  expect(run.finished).toBe(true);
  return run.steps;
}

describe('deleting an account leaves nothing of it but its tombstones', () => {
  it("its stories, reports, notifications and token go; the others' counts drop by exactly its reports", async () => {
    const people = { alice: caller('alice'), bob: caller('bob'), carol: caller('carol') };
    const world = await writeAccountWorld(app.ctx(), people);
    const [bob1, bob2] = world.bobStories as [string, string];

    const accepted = await deleteAccount(app.ctx(), people.alice, { confirm: 'alice.test' });
    expect(accepted).toMatchObject({ status: 'deleting' });
    await deleteToTheEnd(people.alice.account);

    const items = await app.allItems();
    const left = items.filter((item) => mentions(item, people.alice.account));
    // Kept: the account tombstone (`{id, deleted_at}`) and, in bob's inbox, bob's own notifications
    // that she reproduced his stories (design.md#account-deletion, "what deletion keeps"); nothing else names her.
    const othersInboxes = left.filter((item) => String(item.PK).startsWith('INBOX#'));
    expect(othersInboxes.map((item) => [item.PK, item.kind])).toEqual([
      [`INBOX#${people.bob.account}`, 'reproduction'],
      [`INBOX#${people.bob.account}`, 'reproduction'],
    ]);
    expect(left.filter((item) => !othersInboxes.includes(item))).toEqual([
      { PK: `ACCOUNT#${people.alice.account}`, SK: 'META', id: people.alice.account, deleted_at: expect.any(String) },
    ]);
    expect(items.filter((item) => JSON.stringify(item).includes("Alice's story"))).toEqual([]);
    // Each of her stories is a tombstone: META only, no text, no author, hidden.
    for (const slug of world.aliceStories) {
      const story = items.filter((item) => item.PK === `STORY#${slug}`);
      expect(story).toHaveLength(1);
      expect(story[0]).toMatchObject({ SK: 'META', slug, hidden: true, author: '', deleted_at: expect.any(String) });
      expect(story[0]).not.toHaveProperty('title');
      expect(story[0]).not.toHaveProperty('GSI1PK');
      expect(story[0]).not.toHaveProperty('GSI2PK');
    }
    const meta = (slug: string) => items.find((item) => item.PK === `STORY#${slug}` && item.SK === 'META') as Record<string, unknown>;
    // Bob's first story: carol's reproduction stays, alice's reproduction and check are taken back once.
    expect(meta(bob1)).toMatchObject({
      counts: { worked: 1, partial: 0, failed: 0, has_problem: 0, no_problem: 0 },
      reproducers: [people.carol.account],
    });
    expect(meta(bob2)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0, has_problem: 0, no_problem: 0 } });
    expect(meta(bob2)).not.toHaveProperty('reproducers');
    // Bob's own items are untouched (his account, and the pointer to his report on her story, which went with her story).
    expect(items.filter((item) => item.PK === `ACCOUNT#${people.bob.account}`).map((item) => item.SK)).toEqual([
      'META',
      `ONSTORY#${world.aliceStories[0]}`,
    ]);

    // Her token is refused; her story's page answers 410 "deleted".
    await expect(authenticate(app.ctx(), `Bearer ${world.aliceToken}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(await readStoryPage(app.ctx(), world.aliceStories[0] as string)).toMatchObject({ kind: 'deleted' });
  });
});

describe('delete_account is safe to deliver twice', () => {
  it('the same call twice answers the same and writes nothing the second time', async () => {
    const dora = caller('dora');
    await publishStory(app.ctx(), dora, { markdown: storyTitled('Dora deletes twice') });
    const first = await deleteAccount(app.ctx(), dora, { confirm: 'dora.test' });
    const before = await app.allItems();
    app.counter().reset();
    const second = await deleteAccount(app.ctx(), dora, { confirm: 'dora.test' });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.allItems()).toEqual(before);
  });

  it('16 at once: one marker, one event, every answer the same', async () => {
    const erin = caller('erin');
    await publishStory(app.ctx(), erin, { markdown: storyTitled('Erin deletes sixteen times') });
    const answers = await Promise.all(Array.from({ length: 16 }, () => deleteAccount(app.ctx(), erin, { confirm: 'erin.test' })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const events = (await app.allItems()).filter((item) => item.PK === 'OUTBOX' && item.SK === `account-deletion#${erin.account}`);
    expect(events).toHaveLength(1);
    await deleteToTheEnd(erin.account);
  });

  it('an op_id replay answers the first answer, replayed, and writes nothing', async () => {
    const fern = caller('fern');
    const first = await deleteAccount(app.ctx(), fern, { confirm: 'fern.test', op_id: 'op-delete-1' });
    const before = await app.allItems();
    app.counter().reset();
    const replay = await deleteAccount(app.ctx(), fern, { confirm: 'fern.test', op_id: 'op-delete-1' });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(app.counter().writes()).toBe(0);
    expect(await app.allItems()).toEqual(before);
    await expect(deleteAccount(app.ctx(), fern, { confirm: 'other.test', op_id: 'op-delete-1' })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('a wrong handle is validation_failed and writes nothing', async () => {
    const gail = caller('gail');
    await publishStory(app.ctx(), gail, { markdown: storyTitled('Gail mistypes') });
    const before = await app.allItems();
    await expect(deleteAccount(app.ctx(), gail, { confirm: 'gale.test' })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await app.allItems()).toEqual(before);
  });
});

describe('a deleting account writes nothing more, in either arrival order', () => {
  it('a publish after the deletion was accepted is refused; one before it is deleted with the rest', async () => {
    const hal = caller('hal');
    const early = await publishStory(app.ctx(), hal, { markdown: storyTitled('Hal published before') });
    await deleteAccount(app.ctx(), hal, { confirm: 'hal.test' });
    const refused = await publishStory(app.ctx(), hal, { markdown: storyTitled('Hal published after') }).catch((error: unknown) => error);
    expect(isLorebookError(refused) && refused.code).toBe('unauthenticated');
    const lateReport = await reportReproduction(app.ctx(), hal, { slug: early.slug, result: 'worked' }).catch((error: unknown) => error);
    expect(isLorebookError(lateReport) && lateReport.code).toBe('unauthenticated');
    await deleteToTheEnd(hal.account);
    expect((await app.allItems()).filter((item) => mentions(item, hal.account))).toHaveLength(1);
  });
});

describe("a deletion racing the account's own write: a write that read the account before the mark is deleted with the rest", () => {
  it('a report read before the deletion and committed after its steps ran is found once the grace is over: the end state of one clean deletion', async () => {
    const jo = caller('jo');
    const kim = caller('kim');
    const slug = (await publishStory(app.ctx(), kim, { markdown: storyTitled('Kim is reproduced mid-deletion') })).slug;
    // Between the report's read and its commit: the deletion is accepted and its steps run out of work.
    let beforeGrace: Awaited<ReturnType<typeof deleteAccountSteps>> | undefined;
    afterNextRead(app.ctx(), async () => {
      await deleteAccount(app.ctx(), jo, { confirm: 'jo.test' });
      beforeGrace = await deleteAccountSteps(app.ctx(), jo.account, 10_000);
    });
    // The write is not conditioned on the account: it commits.
    expect(await reportReproduction(app.ctx(), jo, { slug, result: 'worked' })).toMatchObject({ counted: true });
    expect(beforeGrace).toMatchObject({ finished: false, waitingUntil: expect.any(Number) });
    const meta = async () => (await app.allItems()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
    expect(await meta()).toMatchObject({ counts: { worked: 1 }, reproducers: [jo.account] });

    await deleteToTheEnd(jo.account);
    const items = await app.allItems();
    expect(items.filter((item) => item.PK === `STORY#${slug}` && item.SK === `REPRO#${jo.account}`)).toEqual([]);
    const after = await meta();
    expect(after).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0 } });
    expect(after).not.toHaveProperty('reproducers');
    // As after a clean deletion: the tombstone, and kim's own notification that jo reproduced her story.
    expect(items.filter((item) => mentions(item, jo.account) && !String(item.PK).startsWith(`INBOX#${kim.account}`))).toEqual([
      { PK: `ACCOUNT#${jo.account}`, SK: 'META', id: jo.account, deleted_at: expect.any(String) },
    ]);
  });
});
