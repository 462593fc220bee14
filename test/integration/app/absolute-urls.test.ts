// Every story link in an answer is absolute, on the deployment's public base URL, so an agent can
// hand it to a person as it is (worklore's clients print `url`): publish, edit and redact
// (and publish_draft, which answers publish's answer) carry `url` and `story_url`; get_story's linked stories (`answers`,
// `answered_by`) carry them too (publish's `similar`: test/integration/app/publish-similar.test.ts).
// Real use cases on DynamoDB Local.
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { redactStory } from '../../../src/app/redact-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';

// Not the default base URL, so a link built from anything but the configured one shows.
const BASE = 'https://lorebook.example';
const app = useAppFixture('absolute-urls', { publicBaseUrl: BASE });
const alice = caller('alice');
const bob = caller('bob');

const page = (slug: string) => `${BASE}/s/${slug}`;
const FAIL_TITLE = "Agent can't make headless Chromium find its fonts after four attempts";

describe('a content write answers the story page as an absolute URL', () => {
  it('publish, edit and redact: url and story_url are the public base URL and the story path', async () => {
    const published = await publishStory(app.ctx(), alice, { markdown: storyTitled('Absolute from the start') });
    expect(published.url).toBe(page(published.slug));
    expect(published.story_url).toBe(page(published.slug));

    const edited = await editStory(app.ctx(), alice, {
      slug: published.slug,
      markdown: storyTitled('Absolute from the start', { extra: 'One more fact.' }),
      kind: 'addition',
      base_revision: published.revision,
    });
    expect([edited.url, edited.story_url]).toEqual([page(published.slug), page(published.slug)]);

    const redacted = await redactStory(app.ctx(), alice, {
      slug: published.slug,
      markdown: storyTitled('Absolute from the start'),
      base_revision: edited.revision,
    });
    expect([redacted.url, redacted.story_url]).toEqual([page(published.slug), page(published.slug)]);
  });

  it("a replay and an identical republish answer the absolute URL too (the op record's path url is made absolute on the way out)", async () => {
    const markdown = storyTitled('Absolute on replay');
    const first = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-absolute' });
    const replayed = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-absolute' });
    const again = await publishStory(app.ctx(), alice, { markdown });
    expect(replayed.replayed).toBe(true);
    for (const answer of [first, replayed, again]) expect([answer.url, answer.story_url]).toEqual([page(first.slug), page(first.slug)]);
  });
});

describe("get_story's linked stories are absolute URLs", () => {
  it('answers on the success story and answered_by on the fail story: url and story_url on the base URL', async () => {
    const fail = (await publishStory(app.ctx(), bob, { markdown: failStory().replaceAll(FAIL_TITLE, 'Fonts missing, absolute') })).slug;
    const success = (
      await publishStory(app.ctx(), alice, { markdown: storyTitled('Fonts back, absolute', { extra: `This answers /s/${fail}.` }) })
    ).slug;

    const answers = (await getStory(app.ctx(), undefined, { slug: success })).answers;
    expect(answers).toEqual([expect.objectContaining({ slug: fail, url: page(fail), story_url: page(fail) })]);
    const answeredBy = (await getStory(app.ctx(), undefined, { slug: fail })).answered_by;
    expect(answeredBy).toEqual([expect.objectContaining({ slug: success, url: page(success), story_url: page(success) })]);
  });
});
