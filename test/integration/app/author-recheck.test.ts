// The author's re-run in get_story (docs/design.md#re-run), on DynamoDB Local through the real use
// cases: the author's own report stays uncounted but shows, and a later correction or addition
// outdates it.
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { withdrawReproduction } from '../../../src/app/withdraw-reproduction.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('author-recheck');
const alice = caller('alice');
const bob = caller('bob');

const recheckOf = async (slug: string) => (await getStory(app.ctx(), undefined, { slug })).author_recheck;

describe("get_story shows the author's own re-run, never counted", () => {
  it('the author\'s "worked" shows as "still works" with its date, and the counts stay at zero', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Author re-ran it') });
    expect(await recheckOf(slug)).toBeUndefined();
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    const story = await getStory(app.ctx(), bob, { slug });
    const at = story.author_recheck?.at ?? '';
    expect(story.author_recheck).toEqual({
      result: 'worked',
      at,
      state: 'current',
      text: `author re-checked ${at.slice(0, 10)} — still works`,
    });
    expect(story.counts).toEqual({ worked: 0, partial: 0, failed: 0 });
    expect(story.reproducers_count).toBe(0);
  });

  it("another reader's report is not the author's re-run", async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Only bob reproduced') });
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    expect(await recheckOf(slug)).toBeUndefined();
  });

  it('a changed author report moves it (failed), and a withdrawn one removes it', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Author changed their mind') });
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    app.advance(1000);
    await reportReproduction(app.ctx(), alice, { slug, result: 'failed', note: 'The API changed.' });
    expect(await recheckOf(slug)).toMatchObject({ result: 'failed', state: 'current', text: expect.stringMatching(/— failed$/) });
    await withdrawReproduction(app.ctx(), alice, { slug });
    expect(await recheckOf(slug)).toBeUndefined();
  });

  it('a correction after the report shows "not re-checked by the author since"; a new report makes it current again', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Corrected after the re-run') });
    await reportReproduction(app.ctx(), alice, { slug, result: 'partial' });
    app.advance(1000);
    const markdown = storyTitled('Corrected after the re-run', { extra: 'Step two needs a flag.' });
    await editStory(app.ctx(), alice, { slug, markdown, kind: 'correction', note: 'Step two needs a flag.' });
    const outdated = await recheckOf(slug);
    expect(outdated).toMatchObject({ result: 'partial', state: 'outdated', changed_by: { revision: 2, kind: 'correction' } });
    expect(outdated?.text).toBe(`not re-checked by the author since the correction of ${outdated?.changed_by?.at.slice(0, 10)}`);
    app.advance(1000);
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked', note: 'With the flag it works.' });
    expect(await recheckOf(slug)).toMatchObject({ result: 'worked', state: 'current' });
  });

  it('a rephrase after the report keeps it current; an addition outdates it', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Rephrased after the re-run') });
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    app.advance(1000);
    await editStory(app.ctx(), alice, {
      slug,
      markdown: storyTitled('Rephrased after the re-run', { extra: 'Plainer.' }),
      kind: 'rephrase',
    });
    expect(await recheckOf(slug)).toMatchObject({ state: 'current' });
    app.advance(1000);
    await editStory(app.ctx(), alice, {
      slug,
      markdown: storyTitled('Rephrased after the re-run', { extra: 'Also on ARM.' }),
      kind: 'addition',
    });
    expect(await recheckOf(slug)).toMatchObject({ state: 'outdated', changed_by: { revision: 3, kind: 'addition' } });
  });

  it('costs no round trip more: the report is read in the handle BatchGetItem', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Re-run read cheaply') });
    await reportReproduction(app.ctx(), alice, { slug, result: 'worked' });
    app.counter().reset();
    expect((await getStory(app.ctx(), bob, { slug })).author_recheck?.state).toBe('current');
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 2, Query: 1 });
  });
});
