// A burst of change-log entries larger than one read's budget, all inside the overlap a reader
// re-reads behind its watermark: every read must get further, however many of the entries it
// meets it has applied already (a reader that counted them sat on the same first page for good).
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { applySearchLog, type LogPosition, startOfLog } from '../../../src/app/search/search-index-feed.ts';
import { createStoryIndex } from '../../../src/app/search/story-index.ts';
import { writeSearchLog } from '../../../src/store/search/search-log.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('search-log-backlog');
const alice = caller('alice');

describe('the search change log read in pieces', () => {
  it('12 entries written in one instant, read 5 at a time: 5, 5, 2, then nothing new, and every story is indexed', async () => {
    app.freeze();
    const start = startOfLog(app.ctx().store.now() - 1);
    const slugs: string[] = [];
    for (let n = 0; n < 12; n += 1)
      slugs.push((await publishStory(app.ctx(), alice, { markdown: storyTitled(`Backlog story ${n}`) })).slug);
    await writeSearchLog(
      app.ctx().store,
      slugs.map((slug) => ({ slug, eventId: `burst-${slug}` })),
    );

    const index = createStoryIndex();
    let position: LogPosition = start;
    const reads: Array<{ entries: number; complete: boolean }> = [];
    for (let round = 0; round < 4; round += 1) {
      const applied = await applySearchLog(app.ctx(), index, position, { maxEntries: 5 });
      reads.push({ entries: applied.entries, complete: applied.complete });
      position = applied.position;
    }
    expect(reads).toEqual([
      { entries: 5, complete: false },
      { entries: 5, complete: false },
      { entries: 2, complete: true },
      { entries: 0, complete: true },
    ]);
    expect(index.size).toBe(12);
  });
});
