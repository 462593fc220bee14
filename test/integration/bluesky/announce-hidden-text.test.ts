// Against a real PDS: a story stored before invisible characters were refused (written into the
// table directly, past the door) is announced with each one made visible as `{U+XXXX}` in the
// post's text and its link card, never posted as hidden text.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { findForbiddenChar } from '../../../src/domain/text-controls.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-announce-hidden-text');
const bsky = useBluesky();

describe('a story stored with hidden characters', () => {
  it('is posted with them by name in the text, the link card title and its description', async () => {
    const { slug } = await publishStory(app.ctx(), caller('alice'), { markdown: storyTitled('Posted before the rule') });
    await updateStoryMeta(app.ctx(), slug, {
      expression: 'SET title = :title, summary = :summary',
      values: { ':title': 'Posted before the rule\u{E0068}\u{E0069}', ':summary': 'A summary \u202Eturned\u202C around' },
    });
    expect(await announceStory(app.ctx(), bsky.announcer(), slug)).toMatchObject({ outcome: 'posted' });
    const [post, ...more] = await bsky.postsFor(slug);
    expect(more).toHaveLength(0);
    expect(post?.value.text).toMatch(/^Posted before the rule\{U\+E0068\}\{U\+E0069\}\nby @/);
    expect(post?.value.embed?.external).toMatchObject({
      title: 'Posted before the rule{U+E0068}{U+E0069}',
      description: 'A summary {U+202E}turned{U+202C} around',
    });
    expect(findForbiddenChar(JSON.stringify(post?.value))).toBeUndefined();
  });
});
