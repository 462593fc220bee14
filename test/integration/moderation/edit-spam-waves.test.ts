// Spam waves and edit_story (design.md#spam-waves): an edit is judged as a publish is — an edit that makes a
// listed story a near-duplicate of another account's recent one is duplicate_content naming it,
// joins the wave on the operator queue and changes nothing else — and the story's bands move with
// its text in the edit's own transaction, so an edit away from a text leaves its wave.
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { spamWaveQueue } from '../../../src/app/moderation/spam-wave-queue.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { signatureHex, signatureOf, storyBody } from '../../../src/domain/near-duplicate/near-duplicate-signature.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { spamCopy, storyOfItsOwn } from '../../helpers/spam-wave.ts';

const app = useAppFixture('edit-spam-waves', { duplicateWindowHours: 168 });
const bands = async (slug: string): Promise<string[]> =>
  (await app.state())
    .filter((item) => String(item.PK).startsWith('DUPBAND#') && item.slug === slug)
    .map((item) => `${String(item.PK)} ${String(item.signature)}`)
    .sort();
const revision = async (slug: string, who = caller('reader')): Promise<number> => (await getStory(app.ctx(), who, { slug })).revision;

describe('edit_story is judged for spam waves', () => {
  it("an edit that copies another account's story in is duplicate_content naming it, joins its wave once (twice, 16 at once, op_id replay) and changes nothing else", async () => {
    const original = await publishStory(app.ctx(), caller('wave-author'), { markdown: storyOfItsOwn('Original wave text', 31, 24) });
    const mine = await publishStory(app.ctx(), caller('editor'), { markdown: storyOfItsOwn('Editor own text', 32, 24) });
    const before = await app.state();
    const copyIn = { slug: mine.slug, markdown: spamCopy(storyOfItsOwn('Editor own text', 31, 24), 3), kind: 'rephrase' };

    const error = await refusal(editStory(app.ctx(), caller('editor'), { ...copyIn, op_id: 'op-edit-copy' }));
    expect(error).toMatchObject({ code: 'duplicate_content', retryable: false, details: { original: original.slug } });
    await refusal(editStory(app.ctx(), caller('editor'), copyIn));
    await Promise.all(Array.from({ length: 16 }, () => refusal(editStory(app.ctx(), caller('editor'), copyIn))));
    await refusal(editStory(app.ctx(), caller('editor'), { ...copyIn, op_id: 'op-edit-copy' }));

    const added = (await app.state()).filter((item) => !before.some((kept) => kept.PK === item.PK && kept.SK === item.SK));
    expect(added.map((item) => [String(item.PK).split('#')[0], item.slug, item.original])).toEqual([['DUPWAVE', mine.slug, original.slug]]);
    expect(await revision(mine.slug)).toBe(1);
    const wave = (await spamWaveQueue(app.ctx(), 50)).find((entry) => entry.slug === original.slug);
    expect(wave).toMatchObject({ copies: 1, accounts: [caller('editor').account], refused: [{ slug: mine.slug }] });
  });

  it('an edit away from a text leaves its bands to the next story and holds the new text instead, in the same transaction', async () => {
    const author = caller('moving-author');
    const first = await publishStory(app.ctx(), author, { markdown: storyOfItsOwn('Moving text', 41, 24) });
    const firstBands = await bands(first.slug);
    expect(firstBands).toHaveLength(10);
    await refusal(publishStory(app.ctx(), caller('early-copier'), { markdown: spamCopy(storyOfItsOwn('Moving text', 41, 24), 1) }));

    const away = { slug: first.slug, markdown: storyOfItsOwn('Moving text', 42, 24), kind: 'rephrase' as const };
    const edited = await editStory(app.ctx(), author, { ...away, op_id: 'op-edit-away' });
    expect(edited.revision).toBe(2);
    const movedBands = await bands(first.slug);
    expect(movedBands).toHaveLength(10);
    expect(movedBands.filter((band) => firstBands.includes(band))).toEqual([]);

    // Twice-safe: the same edit again, sixteen at once and its op_id replay change nothing more.
    const afterEdit = await app.state();
    await editStory(app.ctx(), author, away);
    await Promise.all(Array.from({ length: 16 }, () => editStory(app.ctx(), author, away)));
    expect(await editStory(app.ctx(), author, { ...away, op_id: 'op-edit-away' })).toMatchObject({ revision: 2, replayed: true });
    expect(await app.state()).toEqual(afterEdit);

    // The old text is free: a copy of it lands. The new text is held: a copy of it is refused.
    await publishStory(app.ctx(), caller('late-copier'), { markdown: spamCopy(storyOfItsOwn('Moving text', 41, 24), 2) });
    const error = await refusal(
      publishStory(app.ctx(), caller('new-copier'), { markdown: spamCopy(storyOfItsOwn('Moving text', 42, 24), 4) }),
    );
    expect(error).toMatchObject({ code: 'duplicate_content', details: { original: first.slug } });
  });

  it('sixteen different edits of one story at once: one lands, and the story holds exactly the bands of the text that landed', async () => {
    const author = caller('racing-author');
    const story = await publishStory(app.ctx(), author, { markdown: storyOfItsOwn('Racing text', 51, 24) });
    const answers = await Promise.allSettled(
      Array.from({ length: 16 }, (_, index) =>
        editStory(app.ctx(), author, {
          slug: story.slug,
          markdown: storyOfItsOwn('Racing text', 60 + index, 24),
          kind: 'rephrase',
          base_revision: 1,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(1);
    const meta = (await app.state()).find((item) => item.PK === `STORY#${story.slug}` && item.SK === 'BODY');
    const held = await bands(story.slug);
    expect(held).toHaveLength(10);
    const winner = storyOfItsOwn('Racing text', 60 + answers.findIndex((answer) => answer.status === 'fulfilled'), 24);
    expect(meta?.markdown).toBe(winner);
    expect(new Set(held.map((band) => band.split(' ')[1]))).toEqual(new Set([signatureHex(signatureOf(storyBody(winner)))]));
  });
});
