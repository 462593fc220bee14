// Spam waves (design.md#spam-waves): a listed story nearly the same as another account's recent one is
// duplicate_content naming the original, decided from band items in the store, so a wave sent at
// once lands at most one story and a refusal leaves only its record for the moderation queue.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { listDuplicateRefusals } from '../../../src/store/near-duplicate/duplicate-refusal-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { pairsNotNearDuplicate, spamCopy, storyOfItsOwn } from '../../helpers/spam-wave.ts';
import { failStory } from '../../helpers/stories.ts';

const app = useAppFixture('spam-waves', { duplicateWindowHours: 168 });
const today = (): string => new Date(app.ctx().store.now()).toISOString().slice(0, 10);
const stories = async (): Promise<string[]> =>
  (await app.state()).filter((item) => item.SK === 'META' && String(item.PK).startsWith('STORY#')).map((item) => String(item.slug));

describe('a spam wave lands at most one story', () => {
  it("a near-duplicate of another account's story is duplicate_content naming the original, and only its refusal record is written", async () => {
    const original = await publishStory(app.ctx(), caller('first-author'), { markdown: storyOfItsOwn('Counters that double', 1) });
    const before = await app.state();
    const error = await refusal(
      publishStory(app.ctx(), caller('copier'), { markdown: spamCopy(storyOfItsOwn('Counters that double', 1), 1), op_id: 'op-copy' }),
    );
    expect(error).toMatchObject({ code: 'duplicate_content', retryable: false, details: { original: original.slug } });
    const added = (await app.state()).filter((item) => !before.some((kept) => kept.PK === item.PK && kept.SK === item.SK));
    expect(added.map((item) => String(item.PK).split('#')[0])).toEqual(['DUPWAVE']);
    expect(added[0]).not.toHaveProperty('markdown');
    // The same refusal again, and sixteen at once: still one record, still refused.
    await Promise.all(
      Array.from({ length: 16 }, () =>
        refusal(
          publishStory(app.ctx(), caller('copier'), { markdown: spamCopy(storyOfItsOwn('Counters that double', 1), 1), op_id: 'op-copy' }),
        ),
      ),
    );
    expect(
      (await listDuplicateRefusals(app.ctx().store, today())).filter((kept) => kept.account === caller('copier').account),
    ).toHaveLength(1);
  });

  it('twenty accounts publishing copies of one story at once land one story; the others are refused naming it', async () => {
    // Long enough that a copy's few changed words leave every pair near-duplicates, whichever lands first.
    const copies = Array.from({ length: 20 }, (_, copy) => spamCopy(storyOfItsOwn('Twenty copies at once', 2, 24), copy));
    expect(pairsNotNearDuplicate(copies)).toEqual([]);
    const answers = await Promise.allSettled(
      copies.map((markdown, copy) => publishStory(app.ctx(), caller(`spammer-${copy}`), { markdown })),
    );
    const landed = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value.slug] : []));
    expect(landed).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 'rejected')
        expect(answer.reason).toMatchObject({ code: 'duplicate_content', details: { original: landed[0] } });
    }
    expect((await stories()).filter((slug) => slug.includes('twenty-copies-at-once'))).toEqual(landed);
    const wave = (await listDuplicateRefusals(app.ctx().store, today())).filter((kept) => kept.original === landed[0]);
    expect(wave).toHaveLength(19);
  });

  it("the author's own near-duplicates, another account's private copy and a different story are not refused", async () => {
    const author = caller('prolific');
    await publishStory(app.ctx(), author, { markdown: storyOfItsOwn('My own template', 3) });
    await publishStory(app.ctx(), author, { markdown: spamCopy(storyOfItsOwn('My own template', 3), 2) });
    await publishStory(app.ctx(), caller('private-copier'), {
      markdown: spamCopy(storyOfItsOwn('My own template', 3).replace('status: n/a\n', 'status: n/a\nvisibility: private\n'), 3),
    });
    await publishStory(app.ctx(), caller('honest'), { markdown: failStory() });
  });

  it('an op_id replay of the original answers its first answer after the wave', async () => {
    const markdown = storyOfItsOwn('Replayed original', 4);
    const first = await publishStory(app.ctx(), caller('replayer'), { markdown, op_id: 'op-original' });
    await refusal(publishStory(app.ctx(), caller('wave'), { markdown: spamCopy(markdown, 4) }));
    expect(await publishStory(app.ctx(), caller('replayer'), { markdown, op_id: 'op-original' })).toEqual({ ...first, replayed: true });
  });

  it('a copy published after the window is not refused', async () => {
    const markdown = storyOfItsOwn('Old news', 5);
    await publishStory(app.ctx(), caller('long-ago'), { markdown });
    app.advance(169 * 3_600_000);
    await publishStory(app.ctx(), caller('latecomer'), { markdown: spamCopy(markdown, 5) });
  });
});
