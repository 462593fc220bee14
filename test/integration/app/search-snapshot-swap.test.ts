// The search snapshot off the event loop (design.md#search): an instance reloading a snapshot keeps
// answering from the index it has and takes the new one whole; a snapshot job whose process is
// killed moves nothing, the instances keep their index, and the next interval's run
// moves the pointer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { REPLAY_LIMIT_MS } from '../../../src/app/search/live-story-index.ts';
import { runSnapshotJob } from '../../../src/app/search/search-snapshot-job.ts';
import { startSearchSnapshots } from '../../../src/app/search/snapshot-schedule.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { runSnapshotJobInProcess, runSnapshotJobWhereNeeded } from '../../../src/cli/snapshot-job-in-process.ts';
import { readConfig } from '../../../src/config.ts';
import { writeSearchLog } from '../../../src/store/search/search-log.ts';
import { readSearchPointer } from '../../../src/store/search/search-pointer.ts';
import { searchSnapshotsInDirectory } from '../../../src/store/search/search-snapshots-dir.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { countedSnapshots } from '../../helpers/counted-snapshots.ts';
import { eventually } from '../../helpers/eventually.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

// Every change written to a snapshot by the next run: these tests are about loading and moving them.
const app = useAppFixture('search-snapshot-swap', { searchSnapshotAfterEntries: 0 });
const alice = caller('alice');
const directory = mkdtempSync(join(tmpdir(), 'lorebook-search-swap-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const snapshots = searchSnapshotsInDirectory(directory);

/** The app's context with a store clock of its own, `offset()` ms from now. */
const withClock = (offset: () => number): AppContext => ({ ...app.ctx(), store: { ...app.ctx().store, now: () => Date.now() + offset() } });

/** Publishes stories titled with the word, each with its change-log entry stamped by `ctx`'s clock. */
let published = 0;
async function publish(ctx: AppContext, word: string, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    published += 1;
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(`${word} story number ${published}`) });
    await writeSearchLog(ctx.store, [{ slug, eventId: `${word}-${published}` }]);
  }
}

describe('an instance reloading the snapshot', () => {
  it('answers every search from a whole index, the old one until the new one is loaded', async () => {
    const past = withClock(() => -20 * 60_000);
    // Snapshot A, with three stories, written 20 minutes ago by the store's clock.
    await publish(past, 'zephyrine', 3);
    await runSnapshotJob(past, snapshots);
    let shift = 0;
    let clock = Date.now();
    const instance = createStorySearch(
      withClock(() => shift),
      { snapshots, refreshMs: 1000, now: () => clock },
    );
    expect((await instance.search({ query: 'zephyrine' })).total).toBe(3);

    // Two more, logged 10 minutes ago: the next job applies them (snapshot B), the instance's
    // log reads (from its last read, less 30 s) never see them, so only B's load brings them.
    await publish(
      withClock(() => -10 * 60_000),
      'zephyrine',
      2,
    );
    expect((await runSnapshotJob(app.ctx(), snapshots)).moved).toBe(true);

    // The instance is now 7 hours behind: its next refresh starts loading B in the background.
    shift = REPLAY_LIMIT_MS + 60 * 60_000;
    clock += 2000;
    const totals: number[] = [];
    await eventually(
      async () => {
        const { total } = await instance.search({ query: 'zephyrine' });
        totals.push(total);
        return total === 5 ? total : undefined;
      },
      'the instance loads snapshot B',
      60_000,
      10,
    );
    expect(totals[0]).toBe(3);
    expect(totals.every((total) => total === 3 || total === 5)).toBe(true);
  });
});

describe('an instance whose newest snapshot is old', () => {
  it('loads it once and replays the log, rather than loading it again at every search', async () => {
    // A snapshot written with a story, then seven quiet hours (nothing logged, so none newer).
    await publish(app.ctx(), 'marigold', 1);
    await runSnapshotJob(app.ctx(), snapshots);
    const counted = countedSnapshots(snapshots);
    const later = withClock(() => REPLAY_LIMIT_MS + 60 * 60_000);
    let clock = Date.now();
    const instance = createStorySearch(later, { snapshots: counted.snapshots, refreshMs: 1000, now: () => clock });
    for (let search = 0; search < 5; search += 1) {
      expect((await instance.search({ query: 'marigold' })).total).toBe(1);
      clock += 2000;
      // A reload in the background, if one started, has its turn before the next search.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The cold start's load, and at most one check of the same snapshot: never one a search.
    expect(counted.loads()).toBeLessThanOrEqual(1);
  });
});

/** The settings a job process reads, as `npm start` passes them: this suite's table and directory. */
const jobConfig = (afterEntries: number) =>
  readConfig({
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_DATA_DIR: join(directory, 'data'),
    LOREBOOK_IMAGE_DIR: join(directory, 'images'),
    LOREBOOK_SEARCH_DIR: directory,
    LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES: String(afterEntries),
  });

describe('the snapshot job in a process of its own', () => {
  it('a killed job process moves nothing and the instance keeps answering; the next interval moves the pointer', async () => {
    await publish(app.ctx(), 'quillwort', 2);
    const instance = createStorySearch(app.ctx(), { snapshots });
    expect((await instance.search({ query: 'quillwort' })).total).toBe(2);
    const before = await readSearchPointer(app.ctx().store);

    const config = jobConfig(0);
    const lines: string[] = [];
    let runs = 0;
    const job = startSearchSnapshots(
      // The first run's process is killed as soon as it starts: a fault no real part produces on cue.
      () => runSnapshotJobInProcess(config, testEndpoint(), runs++ === 0 ? { onStart: (child) => void child.kill('SIGKILL') } : {}),
      { intervalMs: 200, log: (line) => lines.push(line) },
    );
    try {
      await eventually(
        async () => (lines.some((line) => line.includes('search snapshot:')) ? true : undefined),
        'a later run writes',
        60_000,
      );
    } finally {
      await job.stop();
    }
    expect(lines[0]).toMatch(/search snapshot failed .*the next run retries/);
    const after = await readSearchPointer(app.ctx().store);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    expect((await instance.search({ query: 'quillwort' })).total).toBe(2);
  });

  it("npm start's run starts a process only when it would load: a few changes are counted on the calling thread, more load in a process", {
    timeout: 60_000,
  }, async () => {
    const afterEntries = 3;
    const ctx: AppContext = { ...app.ctx(), config: { ...app.ctx().config, searchSnapshotAfterEntries: afterEntries } };
    const config = jobConfig(afterEntries);
    let processes = 0;
    const countProcess = (): void => {
      processes += 1;
    };
    const run = () => runSnapshotJobWhereNeeded(ctx, config, testEndpoint(), { onStart: countProcess });
    // Whatever the tests before left, a run that loads leaves the pointer with its count.
    await publish(app.ctx(), 'marshwort', afterEntries + 1);
    expect(await run()).toMatchObject({ from: 'snapshot', moved: true });
    expect(processes).toBe(1);

    await publish(app.ctx(), 'marshwort', 1);
    expect(await run()).toEqual({ from: 'log', left: 1, stories: undefined, logEntries: 0, changed: 0, moved: false });
    expect(processes).toBe(1);

    await publish(app.ctx(), 'marshwort', afterEntries);
    expect(await run()).toMatchObject({ from: 'snapshot', moved: true });
    expect(processes).toBe(2);
  });
});
