// Account deletion's steps where what they read is not what a plain run leaves (design.md#account-deletion,
// src/app/account/deletion-step.ts): the answer links a deleted success story made on other
// people's fail stories, a story the author index still lists after it went (the index is
// eventually consistent in DynamoDB; the one stub here stands in for that lag), and an account
// item that names no handle.
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { runDeletionStep, type StepResult } from '../../../src/app/account/deletion-step.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { DEFAULT_APP_CONFIG } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { putBlueskySession } from '../../../src/store/identity/bluesky-session-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { updateItem } from '../../../src/store/update-item.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { laggingAuthorIndex } from '../../helpers/lagging-author-index.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('deletion-step-guards', { newAccountHours: 0 });
const GRACE_MS = DEFAULT_APP_CONFIG.accountDeletionGraceSeconds * 1000;
const FAIL_TITLE = "Agent can't make headless Chromium find its fonts after four attempts";

const storyPartition = async (slug: string) => (await app.allItems()).filter((item) => item.PK === `STORY#${slug}`);

/** Runs steps until one drops the author of a story (a stories step that deletes nothing); answers the steps run. */
async function stepsUntilAuthorDropped(account: string): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (let step = 0; step < 100; step += 1) {
    const result = await runDeletionStep(app.ctx(), account);
    results.push(result);
    if (result.kind === 'step' && result.phase === 'stories' && result.deleted === 0) return results;
  }
  throw new Error('no step dropped the author in 100 steps');
}

describe('a deleted success story takes the answer links it made on other stories with it', () => {
  it('the tombstoning step deletes each ANSWER# item on the fail stories it answered and counts them', async () => {
    const kim = caller('kim');
    const lee = caller('lee');
    const fails = [];
    for (const title of ['Fonts missing in CI one', 'Fonts missing in CI two']) {
      fails.push((await publishStory(app.ctx(), kim, { markdown: failStory().replaceAll(FAIL_TITLE, title) })).slug);
    }
    const extra = `This answers /s/${fails[0]} and /s/${fails[1]}.`;
    const { slug } = await publishStory(app.ctx(), lee, { markdown: storyTitled('Lee fixed the fonts', { extra }) });
    const answerItems = async () => (await app.allItems()).filter((item) => String(item.SK).startsWith('ANSWER#'));
    expect((await answerItems()).map((item) => item.PK).sort()).toEqual(fails.map((fail) => `STORY#${fail}`).sort());
    await deleteAccount(app.ctx(), lee, { confirm: lee.handle });

    expect(await runDeletionStep(app.ctx(), lee.account)).toEqual({ kind: 'step', phase: 'stories', deleted: 3, tombstoned: slug });
    expect(await answerItems()).toEqual([]);
    // kim's fail stories themselves are untouched.
    for (const fail of fails)
      expect((await storyPartition(fail)).find((item) => item.SK === 'META')).toMatchObject({ author: kim.account });
    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), lee.account, 100)).toMatchObject({ finished: true });
  });
});

describe('a story the author index still lists after it went is skipped, not planned again', () => {
  it('its author already dropped: the next step goes on to the next phase instead of racing its own earlier step', async () => {
    const mia = caller('mia');
    const index = laggingAuthorIndex(app.ctx());
    await publishStory(app.ctx(), mia, { markdown: storyTitled('Mia is dropped from the index late') });
    await deleteAccount(app.ctx(), mia, { confirm: mia.handle });
    await stepsUntilAuthorDropped(mia.account);

    index.lagOnce();
    const next = await runDeletionStep(app.ctx(), mia.account);
    expect(next).not.toEqual({ kind: 'raced' });
    expect(next).not.toMatchObject({ phase: 'stories' });
    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), mia.account, 100)).toMatchObject({ finished: true });
  });

  it('its item gone altogether: the step skips it and goes on, it does not fail on the missing item', async () => {
    const ned = caller('ned');
    const index = laggingAuthorIndex(app.ctx());
    const { slug } = await publishStory(app.ctx(), ned, { markdown: storyTitled('Ned has a story removed by hand') });
    await deleteAccount(app.ctx(), ned, { confirm: ned.handle });
    // The first step reads the index (which the lag will repeat) and tombstones the story.
    expect(await runDeletionStep(app.ctx(), ned.account)).toMatchObject({ phase: 'stories', tombstoned: slug });
    const partition = await storyPartition(slug);
    await writeAtomically(
      app.ctx().store,
      partition.map((item) => ({ Delete: { Key: { PK: String(item.PK), SK: String(item.SK) } } })),
    );

    index.lagOnce();
    const next = await runDeletionStep(app.ctx(), ned.account);
    expect(next).toMatchObject({ kind: 'step' });
    expect(next).not.toMatchObject({ phase: 'stories' });
    app.advance(GRACE_MS);
    expect(await deleteAccountSteps(app.ctx(), ned.account, 100)).toMatchObject({ finished: true });
  });
});

describe('an account item that names no handle', () => {
  it('the Bluesky session still goes, and no handle item is touched', async () => {
    const oli = caller('oli');
    const now = app.ctx().store.now();
    await publishStory(app.ctx(), oli, { markdown: storyTitled('Oli has no handle on file') });
    await writeAtomically(app.ctx().store, [
      putBlueskySession({ did: oli.account, session_data: '{}', updated_at: new Date(now).toISOString(), expires_at: 4_000_000_000 }),
      {
        Put: {
          Item: {
            PK: `HANDLE#${oli.handle}`,
            SK: 'META',
            handle: oli.handle,
            account: oli.account,
            created_at: new Date(now).toISOString(),
          },
        },
      },
    ]);
    await deleteAccount(app.ctx(), oli, { confirm: oli.handle });
    // The account item loses its handle after the mark (as an account item written without one would read).
    await writeAtomically(app.ctx().store, [updateItem({ PK: `ACCOUNT#${oli.account}`, SK: 'META' }, { remove: ['handle'] })]);

    const results: StepResult[] = [];
    for (let step = 0; step < 100; step += 1) {
      const result = await runDeletionStep(app.ctx(), oli.account);
      results.push(result);
      if (result.kind !== 'step') break;
    }
    expect(results.find((result) => result.kind === 'step' && result.phase === 'keyed')).toEqual({
      kind: 'step',
      phase: 'keyed',
      deleted: 1,
    });
    const items = await app.allItems();
    expect(items.filter((item) => String(item.PK).startsWith('BSKYSESS#'))).toEqual([]);
    expect(items.filter((item) => String(item.PK).startsWith('HANDLE#'))).toEqual([expect.objectContaining({ account: oli.account })]);
  });
});
