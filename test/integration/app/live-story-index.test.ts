// One instance's live search index over DynamoDB Local: a forget() that lands while a search waits
// on its refresh (16 parallel publishes, each telling the search the feed changed, did this) does
// not fail that search; it answers from the index it had, and the next search loads again.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { createLiveIndex, type LiveIndex } from '../../../src/app/search/live-story-index.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('live-story-index');

describe('a forget() while a search refreshes', () => {
  it('the waiting search answers from the index it had; the next search loads again and sees what was published meanwhile', async () => {
    await publishStory(app.ctx(), caller('alice'), { markdown: storyTitled('Forgotten mid-refresh') });
    let forgetDuringRefresh = false;
    let live: LiveIndex | undefined;
    const loads: string[] = [];
    live = createLiveIndex(app.ctx(), {
      refreshMs: 0,
      // The refresh reads the clock as it starts; the forget lands while it awaits the change log.
      now: () => {
        if (forgetDuringRefresh) {
          forgetDuringRefresh = false;
          queueMicrotask(() => live?.forget());
        }
        return Date.now();
      },
      log: (line) => loads.push(line),
    });
    expect((await live.current()).size).toBe(1);
    expect(loads).toHaveLength(1);

    await publishStory(app.ctx(), caller('bob'), { markdown: storyTitled('Published after the first load') });
    forgetDuringRefresh = true;
    const answered = await live.current();
    expect(forgetDuringRefresh).toBe(false);
    expect(answered.size).toBeGreaterThanOrEqual(1);

    const next = await live.current();
    expect(next).not.toBe(answered);
    expect(next.size).toBe(2);
    expect(loads).toHaveLength(2);
  });
});
