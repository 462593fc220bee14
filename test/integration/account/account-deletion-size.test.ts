// How long a big account takes to delete (design.md#account-deletion): 100 stories and 3,000 notifications, in
// bounded steps of at most 50 items; prints the steps, the time and the time per step.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { STEP_ITEMS } from '../../../src/app/account/deletion-step.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { notificationItem } from '../../../src/store/story/notification-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { inParallel } from '../../helpers/in-parallel.ts';
import { putItems } from '../../helpers/put-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

// The finish waits for no grace here: no write races these deletions (the grace has its test in account-deletion.test.ts).
const app = useAppFixture('account-deletion-size', { accountDeletionGraceSeconds: 0 });
const STORIES = 100;
const NOTIFICATIONS = 3_000;

describe('a big account is deleted in bounded steps', () => {
  it(`${STORIES} stories and ${NOTIFICATIONS} notifications: every step holds at most ${STEP_ITEMS} items`, {
    timeout: 600_000,
  }, async () => {
    const ivy = caller('ivy');
    await ensureAccount(app.ctx(), ivy);
    // Set-up, a few at a time and in bulk (what is measured is the deletion below).
    await inParallel(STORIES, 5, (index) =>
      publishStory(app.ctx(), ivy, { markdown: storyTitled(`Ivy's story ${index} of many`, { visibility: 'private' }) }),
    );
    const notifications = Array.from({ length: NOTIFICATIONS }, (_, index) =>
      notificationItem({
        recipient: ivy.account,
        kind: 'reproduction',
        story: 'some-story',
        story_title: 'Some story',
        actor: 'acct-someone',
        actor_handle: 'someone.test',
        text: 'someone reproduced it',
        at: new Date(Date.UTC(2026, 0, 1) + index).toISOString(),
        discriminator: String(index),
      }),
    );
    await putItems(app.ctx().store, notifications);
    expect(new Set(notifications.map((item) => `${item.PK} ${item.SK}`)).size).toBe(NOTIFICATIONS);
    await deleteAccount(app.ctx(), ivy, { confirm: ivy.handle });
    const sizes: number[] = [];
    const started = performance.now();
    const run = await deleteAccountSteps(app.ctx(), ivy.account, 100_000, (step) => {
      if (step.kind === 'step') sizes.push(step.deleted);
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `account deletion: ${STORIES} stories + ${NOTIFICATIONS} notifications in ${run.steps} steps, ${seconds.toFixed(1)} s (${((seconds * 1000) / run.steps).toFixed(0)} ms a step, largest step ${Math.max(...sizes)} items)`,
    );
    expect(run.finished).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(STEP_ITEMS + 5);
    expect((await app.allItems()).filter((item) => JSON.stringify(item).includes(ivy.account))).toHaveLength(1);
  });
});
