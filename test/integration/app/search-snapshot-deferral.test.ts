// The snapshot job leaves a few changes to the instances (LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES,
// design.md#search): with at most that many log entries since its snapshot it loads nothing and
// writes nothing, every instance still finds the changes by replaying the log from the snapshot's
// watermark, and one entry more, or a day, has the next run write them all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { runSnapshotJob, SNAPSHOT_REWRITE_MS } from '../../../src/app/search/search-snapshot-job.ts';
import { describeSnapshotJob } from '../../../src/app/search/snapshot-schedule.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { writeSearchLog } from '../../../src/store/search/search-log.ts';
import { readSearchPointer } from '../../../src/store/search/search-pointer.ts';
import { searchSnapshotsInDirectory } from '../../../src/store/search/search-snapshots-dir.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { countedSnapshots } from '../../helpers/counted-snapshots.ts';
import { storyTitled } from '../../helpers/stories.ts';

const LEFT_TO_INSTANCES = 3;
const app = useAppFixture('search-snapshot-deferral', { searchSnapshotAfterEntries: LEFT_TO_INSTANCES });
const alice = caller('alice');
const directory = mkdtempSync(join(tmpdir(), 'lorebook-search-deferral-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const inDirectory = searchSnapshotsInDirectory(directory);
const counted = countedSnapshots(inDirectory);
const { snapshots } = counted;

/** Publishes stories titled with the word, one change-log entry each (as the stream would log them). */
let published = 0;
async function publish(word: string, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    published += 1;
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(`${word} story number ${published}`) });
    await writeSearchLog(app.ctx().store, [{ slug, eventId: `${word}-${published}` }]);
  }
}

/** What an instance starting now, from the snapshot the pointer names, finds for the word. */
async function foundByANewInstance(word: string): Promise<number> {
  return (await createStorySearch(app.ctx(), { snapshots: inDirectory }).search({ query: word })).total;
}

describe('the snapshot job with changes left to the instances', () => {
  it('loads and writes nothing for up to the setting’s entries, which a new instance still finds; one more and the run writes them all', async () => {
    expect(await runSnapshotJob(app.ctx(), snapshots)).toMatchObject({ from: 'feed', moved: true });
    const first = await readSearchPointer(app.ctx().store);
    counted.reset();

    await publish('hawthorn', LEFT_TO_INSTANCES);
    const deferred = await runSnapshotJob(app.ctx(), snapshots);
    expect(deferred).toEqual({ from: 'log', left: LEFT_TO_INSTANCES, stories: undefined, logEntries: 0, changed: 0, moved: false });
    expect(describeSnapshotJob(deferred)).toBe(
      `${LEFT_TO_INSTANCES} log entries since the last snapshot, left to the instances' replay: none loaded, none written`,
    );
    expect(counted.loads()).toBe(0);
    expect(await readSearchPointer(app.ctx().store)).toEqual(first);
    expect(await foundByANewInstance('hawthorn')).toBe(LEFT_TO_INSTANCES);

    await publish('hawthorn', 1);
    expect(await runSnapshotJob(app.ctx(), snapshots)).toMatchObject({
      from: 'snapshot',
      logEntries: LEFT_TO_INSTANCES + 1,
      changed: LEFT_TO_INSTANCES + 1,
      moved: true,
    });
    expect(counted.loads()).toBe(1);
    expect(await runSnapshotJob(app.ctx(), snapshots)).toMatchObject({ from: 'log', left: 0 });
    expect(counted.loads()).toBe(1);
    expect(await foundByANewInstance('hawthorn')).toBe(LEFT_TO_INSTANCES + 1);
  });

  it('writes a day-old snapshot again whatever is left', async () => {
    await publish('bramble', 1);
    expect(await runSnapshotJob(app.ctx(), snapshots)).toMatchObject({ from: 'log', left: 1 });
    app.advance(SNAPSHOT_REWRITE_MS);
    expect(await runSnapshotJob(app.ctx(), snapshots)).toMatchObject({ from: 'snapshot', changed: 1, moved: true });
    expect(await foundByANewInstance('bramble')).toBe(1);
  });
});
