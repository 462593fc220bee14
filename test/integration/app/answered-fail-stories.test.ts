// Answered fail stories (docs/design.md#answered-fail) on DynamoDB Local through the real use cases: a
// success story naming a fail story links the pair in its own transaction, tells the fail
// story's author once, and keeps doing so however it is delivered.
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('answered-fail-stories');
const alice = caller('alice');
const bob = caller('bob');
// The default public base URL of the app context.
const BASE = DEFAULT_APP_CONFIG.publicBaseUrl;

const FAIL_TITLE = "Agent can't make headless Chromium find its fonts after four attempts";
const failTitled = (title: string, status = 'open') =>
  failStory().replaceAll(FAIL_TITLE, title).replace('status: open', `status: ${status}`);
const answering = (title: string, naming: string) => storyTitled(title, { extra: `This answers ${naming}.` });

/** Bob's open fail story. */
async function bobAsks(title: string): Promise<string> {
  return (await publishStory(app.ctx(), bob, { markdown: failTitled(title) })).slug;
}

const answeredBy = async (fail: string) => (await getStory(app.ctx(), undefined, { slug: fail })).answered_by?.map((story) => story.slug);
const answersOf = async (success: string) => (await getStory(app.ctx(), undefined, { slug: success })).answers?.map((story) => story.slug);
const answerNotices = (fail: string) =>
  storedNotifications(app, { account: bob.account, story: fail }).then((all) => all.filter((n) => n.kind === 'answer'));
const pairItems = async (fail: string) =>
  (await app.state()).filter((item) => item.PK === `STORY#${fail}` && String(item.SK).startsWith('ANSWER#'));

describe('a success story that names a fail story links the pair', () => {
  it('by /s/ path: answers on the success, answered_by on the fail, and one notification to the fail author', async () => {
    const fail = await bobAsks('Fonts missing in CI one');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: answering('Fonts fixed one', `/s/${fail}`) });
    expect(await answersOf(slug)).toEqual([fail]);
    expect((await getStory(app.ctx(), undefined, { slug: fail })).answered_by).toEqual([
      { slug, title: 'Fonts fixed one', status: 'n/a', url: `${BASE}/s/${slug}`, story_url: `${BASE}/s/${slug}` },
    ]);
    const notices = await answerNotices(fail);
    expect(notices).toHaveLength(1);
    // The success side rides on the author BatchGetItem; the fail side adds its Query and one BatchGetItem.
    app.counter().reset();
    await getStory(app.ctx(), undefined, { slug });
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 2, Query: 1 });
    app.counter().reset();
    await getStory(app.ctx(), undefined, { slug: fail });
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 3, Query: 2 });
    expect(notices[0]).toMatchObject({ actor: alice.account, read: false, text: expect.stringContaining(`/s/${slug}`) });
  });

  it('by absolute lorebook URL and by bare slug too; a private fail story or one on another site is not linked', async () => {
    const fail = await bobAsks('Fonts missing in CI two');
    const hidden = (
      await publishStory(app.ctx(), bob, {
        markdown: failTitled('Private fonts question').replace('status: open', 'status: open\nvisibility: private'),
      })
    ).slug;
    const { slug } = await publishStory(app.ctx(), alice, {
      markdown: answering('Fonts fixed two', `${BASE}/s/${fail} and ${hidden} but not https://elsewhere.example/s/${fail}`),
    });
    expect(await answersOf(slug)).toEqual([fail]);
    expect(await pairItems(hidden)).toEqual([]);
    const bare = (await publishStory(app.ctx(), alice, { markdown: answering('Fonts fixed two again', fail) })).slug;
    expect(await answeredBy(fail)).toEqual([bare, slug].sort().reverse());
    // A private success story answers nothing.
    const quiet = storyTitled('Fonts fixed privately', { extra: `This answers /s/${fail}.`, visibility: 'private' });
    await publishStory(app.ctx(), alice, { markdown: quiet });
    expect((await pairItems(fail)).map((item) => item.SK)).toEqual([`ANSWER#${bare}`, `ANSWER#${slug}`].sort());
  });

  it('a fail story naming another, or a success naming a success, links nothing', async () => {
    const fail = await bobAsks('Fonts missing in CI three');
    const other = (
      await publishStory(app.ctx(), alice, {
        markdown: failTitled('Also fonts').replace('Screenshots from', `Like ${fail}, screenshots from`),
      })
    ).slug;
    const success = (await publishStory(app.ctx(), alice, { markdown: storyTitled('A plain success') })).slug;
    const naming = (await publishStory(app.ctx(), alice, { markdown: answering('Names a success', success) })).slug;
    expect(await answeredBy(fail)).toEqual([]);
    expect((await getStory(app.ctx(), undefined, { slug: other })).answers).toBeUndefined();
    expect(await answersOf(naming)).toEqual([]);
  });
});

describe('the link is safe to deliver twice', () => {
  it('the same publish twice answers the same, writes nothing and notifies once', async () => {
    const fail = await bobAsks('Twice fonts');
    const markdown = answering('Twice fonts fixed', `/s/${fail}`);
    const first = await publishStory(app.ctx(), alice, { markdown });
    const before = await app.state();
    app.counter().reset();
    expect(await publishStory(app.ctx(), alice, { markdown })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
    expect(await answerNotices(fail)).toHaveLength(1);
  });

  it('16 parallel publishes link the pair once, with one notification', async () => {
    const fail = await bobAsks('Sixteen fonts');
    const markdown = answering('Sixteen fonts fixed', `/s/${fail}`);
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(app.ctx(), alice, { markdown })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await pairItems(fail)).map((item) => [item.SK, item.linked])).toEqual([[`ANSWER#${answers[0]!.slug}`, true]]);
    expect(await answerNotices(fail)).toHaveLength(1);
  });

  it('an op_id replay after the link was dropped answers the first answer and changes nothing', async () => {
    const fail = await bobAsks('Replayed fonts');
    const markdown = answering('Replayed fonts fixed', `/s/${fail}`);
    const first = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-answer-1' });
    await editStory(app.ctx(), alice, { slug: first.slug, markdown: storyTitled('Replayed fonts fixed'), kind: 'rephrase' });
    const before = await app.state();
    expect(await publishStory(app.ctx(), alice, { markdown, op_id: 'op-answer-1' })).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(await answeredBy(fail)).toEqual([]);
    expect(await answerNotices(fail)).toHaveLength(1);
  });
});

describe('an edit that adds the name is safe to deliver twice', () => {
  it('16 parallel edits, then an op_id replay of one, link the pair once with one notification', async () => {
    const fail = await bobAsks('Edited fonts');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Edited fonts fixed') });
    const edit = { slug, markdown: answering('Edited fonts fixed', `/s/${fail}`), kind: 'addition' as const, op_id: 'op-edit-answer' };
    const answers = await Promise.all(Array.from({ length: 16 }, () => editStory(app.ctx(), alice, edit)));
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
    const after = await app.state();
    expect(await editStory(app.ctx(), alice, edit)).toMatchObject({ revision: 2, replayed: true });
    expect(await app.state()).toEqual(after);
    expect((await pairItems(fail)).map((item) => [item.SK, item.linked])).toEqual([[`ANSWER#${slug}`, true]]);
    expect(await answerNotices(fail)).toHaveLength(1);
  });
});

describe('the pair follows edits and visibility', () => {
  it('an edit that drops the name removes the pair from both stories; naming it again restores it without a second notification', async () => {
    const fail = await bobAsks('Dropped fonts');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: answering('Dropped fonts fixed', `/s/${fail}`) });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled('Dropped fonts fixed', { extra: 'No link now.' }), kind: 'rephrase' });
    expect(await answersOf(slug)).toEqual([]);
    expect(await answeredBy(fail)).toEqual([]);
    // Kept unlinked, not deleted: naming it again must find the pair, not notify anew.
    expect((await pairItems(fail)).map((item) => item.linked)).toEqual([false]);
    await editStory(app.ctx(), alice, { slug, markdown: answering('Dropped fonts fixed', `${BASE}/s/${fail}`), kind: 'addition' });
    expect(await answeredBy(fail)).toEqual([slug]);
    expect(await answerNotices(fail)).toHaveLength(1);
  });

  it('an edit that keeps the name writes no second pair and no second notification', async () => {
    const fail = await bobAsks('Kept fonts');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: answering('Kept fonts fixed', `/s/${fail}`) });
    const pair = await pairItems(fail);
    await editStory(app.ctx(), alice, { slug, markdown: answering('Kept fonts fixed', `/s/${fail} (still)`), kind: 'rephrase' });
    expect(await pairItems(fail)).toEqual(pair);
    expect(await answerNotices(fail)).toHaveLength(1);
  });

  it('a hidden answer disappears from the fail story at once, and comes back when shown again', async () => {
    const fail = await bobAsks('Hidden answer fonts');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: answering('Hidden answer fonts fixed', `/s/${fail}`) });
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    expect(await answeredBy(fail)).toEqual([]);
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    expect(await answeredBy(fail)).toEqual([slug]);
  });
});

describe('closing a fail story (status: n/a) and answering it, in either order', () => {
  const close = (fail: string, title: string) =>
    editStory(app.ctx(), bob, { slug: fail, markdown: failTitled(title, 'n/a'), kind: 'addition' });
  const shape = async (fail: string, success: string) => {
    const story = await getStory(app.ctx(), undefined, { slug: fail });
    return {
      status: story.status,
      answered_by: story.answered_by?.map((other) => other.title),
      answers: (await getStory(app.ctx(), undefined, { slug: success })).answers?.map((other) => [
        other.title.replace(/ [AB]$/, ''),
        other.status,
      ]),
      notices: (await answerNotices(fail)).length,
    };
  };

  it('answered then closed, and closed then answered, end in the same state', async () => {
    const failA = await bobAsks('Order fonts A');
    const successA = (await publishStory(app.ctx(), alice, { markdown: answering('Order fixed', `/s/${failA}`) })).slug;
    await close(failA, 'Order fonts A');
    const failB = await bobAsks('Order fonts B');
    await close(failB, 'Order fonts B');
    const successB = (await publishStory(app.ctx(), alice, { markdown: answering('Order fixed again', `/s/${failB}`) })).slug;
    const a = await shape(failA, successA);
    expect(a).toEqual({ status: 'n/a', answered_by: ['Order fixed'], answers: [['Order fonts', 'n/a']], notices: 1 });
    expect({ ...(await shape(failB, successB)), answered_by: ['Order fixed'] }).toEqual(a);
  });
});
