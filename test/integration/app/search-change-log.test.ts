// The search change log fed the table's own stream records (read from DynamoDB Local's Streams
// API after real writes), and the snapshot job over it: what each write logs, that a batch
// delivered twice or by 16 deliveries at once leaves the same index, two jobs at once move the
// pointer once and forward only, a job killed before its move is resumed by the next, and a run
// with nothing logged since the last snapshot loads none.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { recordSearchChanges } from '../../../src/app/search/record-search-changes.ts';
import { runSnapshotJob, SNAPSHOT_REWRITE_MS } from '../../../src/app/search/search-snapshot-job.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { readSearchPointer } from '../../../src/store/search/search-pointer.ts';
import { searchSnapshotsInDirectory } from '../../../src/store/search/search-snapshots-dir.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { countedSnapshots } from '../../helpers/counted-snapshots.ts';
import { eventually } from '../../helpers/eventually.ts';
import { readStreamRecords } from '../../helpers/local-stream.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

// Every change written to a snapshot by the next run, except where a test says otherwise.
const app = useAppFixture('search-change-log', { searchSnapshotAfterEntries: 0 }, { stream: true });
const alice = caller('alice');
const directory = mkdtempSync(join(tmpdir(), 'lorebook-search-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const snapshots = searchSnapshotsInDirectory(directory);

let seen = 0;
async function newStreamRecords(): Promise<DynamoDBRecord[]> {
  const all = await readStreamRecords(testEndpoint(), app.ctx().store.client, app.ctx().store.tableName);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

const logItems = async (): Promise<Record<string, unknown>[]> =>
  (await app.allItems()).filter((item) => String(item.PK).startsWith('SEARCHLOG#'));

/** What an instance that loads the newest snapshot and reads the log finds for the query. */
async function foundElsewhere(query: string): Promise<string[]> {
  const page = await createStorySearch(app.ctx(), { snapshots }).search({ query });
  return page.stories.map((story) => story.title);
}

describe('the change log, fed real stream records', () => {
  it('publish, edit, hide, unhide and a visibility change each log their slug; a report (counts only) logs nothing', async () => {
    await newStreamRecords();
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Gossamer queues stalled') });
    expect(await recordSearchChanges(app.ctx(), await newStreamRecords())).toBeGreaterThan(0);

    await reportReproduction(app.ctx(), caller('bob'), { slug, result: 'worked', op_id: 'op-bob-1' });
    expect(await recordSearchChanges(app.ctx(), await newStreamRecords())).toBe(0);

    const writes: Array<() => Promise<unknown>> = [
      () =>
        editStory(app.ctx(), alice, { slug, markdown: storyTitled('Gossamer queues stalled', { extra: 'Rephrased.' }), kind: 'rephrase' }),
      () => setVisibility(app.ctx(), alice, { slug, hidden: true }),
      () => setVisibility(app.ctx(), alice, { slug, hidden: false }),
      () =>
        editStory(app.ctx(), alice, {
          slug,
          markdown: storyTitled('Gossamer queues stalled', { visibility: 'private' }),
          kind: 'rephrase',
        }),
    ];
    for (const write of writes) {
      await write();
      expect(await recordSearchChanges(app.ctx(), await newStreamRecords())).toBeGreaterThan(0);
    }
    expect((await logItems()).every((item) => item.slug === slug && typeof item.expires_at === 'number')).toBe(true);
  });

  it('each change reaches an instance that started from a snapshot taken before it', async () => {
    await runSnapshotJob(app.ctx(), snapshots);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Obsidian caches expired') });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    expect(await foundElsewhere('obsidian')).toEqual(['Obsidian caches expired']);
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    expect(await foundElsewhere('obsidian')).toEqual([]);
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    expect(await foundElsewhere('obsidian')).toEqual(['Obsidian caches expired']);
  });

  it('a batch delivered twice, or by 16 deliveries at once, leaves the same snapshot as one delivery', async () => {
    await runSnapshotJob(app.ctx(), snapshots);
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Vermilion deploys rolled back') });
    const batch = await newStreamRecords();

    await recordSearchChanges(app.ctx(), batch);
    const once = await runSnapshotJob(app.ctx(), snapshots);
    expect(once.changed).toBe(1);
    const stories = once.stories;

    await recordSearchChanges(app.ctx(), batch);
    await Promise.all(Array.from({ length: 16 }, () => recordSearchChanges(app.ctx(), batch)));
    const again = await runSnapshotJob(app.ctx(), snapshots);
    // The duplicates were applied (re-read) and changed nothing, so no snapshot was written.
    expect(again.logEntries).toBeGreaterThan(0);
    expect(again).toMatchObject({ changed: 0, stories, moved: false });
    expect(again.written).toBeUndefined();
    expect(await foundElsewhere('vermilion')).toEqual(['Vermilion deploys rolled back']);
  });
});

describe('the snapshot job', () => {
  it('two jobs at once: the pointer moves once, by one version, forward', async () => {
    // A pointer to move from (run alone, this test would otherwise race two first builds).
    await runSnapshotJob(app.ctx(), snapshots);
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Cerulean builds flaked') });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    const before = await readSearchPointer(app.ctx().store);
    const reports = await Promise.all([runSnapshotJob(app.ctx(), snapshots), runSnapshotJob(app.ctx(), snapshots)]);
    const after = await readSearchPointer(app.ctx().store);
    expect(reports.filter((report) => report.moved)).toHaveLength(1);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    expect(after?.watermark).toBeGreaterThan(before?.watermark ?? 0);
    expect(after?.snapshot).toBe(reports.find((report) => report.moved)?.written);
  });

  it('a job killed between writing its snapshot and moving the pointer changed nothing; the next run resumes', async () => {
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Saffron migrations paused') });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    const before = await readSearchPointer(app.ctx().store);
    // Injected fault: a process cannot be killed at exactly this point from inside a test.
    const killed = runSnapshotJob(app.ctx(), snapshots, {
      beforeMove: () => Promise.reject(new Error('killed')),
    });
    await expect(killed).rejects.toThrow('killed');
    expect(await readSearchPointer(app.ctx().store)).toEqual(before);
    const resumed = await runSnapshotJob(app.ctx(), snapshots);
    expect(resumed).toMatchObject({ from: 'snapshot', changed: 1, moved: true });
    expect(await foundElsewhere('saffron')).toEqual(['Saffron migrations paused']);
  });

  it('an instance starts from the snapshot: no feed Query, no Scan', async () => {
    await runSnapshotJob(app.ctx(), snapshots);
    app.counter().reset();
    expect(await foundElsewhere('cerulean')).toEqual(['Cerulean builds flaked']);
    const calls = app.counter().snapshot();
    expect(calls.Scan).toBeUndefined();
    // The pointer, one log Query (one hour partition, two at an hour's turn), the page and its handles.
    expect(calls.GetItem).toBe(1);
    expect(calls.Query ?? 0).toBeLessThanOrEqual(2);
  });

  it('keeps the named snapshot and the one before it in the directory: no older one, no loser of a race, no partial write', async () => {
    const previous = await readSearchPointer(app.ctx().store);
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Umber tokens leaked') });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    expect((await runSnapshotJob(app.ctx(), snapshots)).moved).toBe(true);
    const pointer = await readSearchPointer(app.ctx().store);
    expect(readdirSync(directory).sort()).toEqual([previous?.snapshot, pointer?.snapshot].sort());
  });

  it('a run with nothing logged since the last snapshot reads no snapshot and writes none, though the change before it sits in the overlap; the next change is applied, entries that change nothing are loaded once, and a day on the snapshot is written again', async () => {
    const loaded = countedSnapshots(snapshots);
    const counted = loaded.snapshots;
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Vermilion queues drained') });
    await recordSearchChanges(app.ctx(), await newStreamRecords());
    expect(await runSnapshotJob(app.ctx(), counted)).toMatchObject({ from: 'snapshot', changed: 1, moved: true });
    const written = await readSearchPointer(app.ctx().store);
    // The change was logged seconds before the new watermark: within the overlap every run reads again.
    expect(written?.overlap_entries).toBeGreaterThanOrEqual(1);
    loaded.reset();

    const idle = await runSnapshotJob(app.ctx(), counted);
    expect(idle).toEqual({ from: 'log', left: 0, stories: undefined, logEntries: 0, changed: 0, moved: false });
    expect(loaded.loads()).toBe(0);
    expect(await readSearchPointer(app.ctx().store)).toEqual(written);

    await publishStory(app.ctx(), alice, { markdown: storyTitled('Viridian workers idled') });
    const viridian = await newStreamRecords();
    await recordSearchChanges(app.ctx(), viridian);
    // This time the job runs a minute after the change: it is behind the overlap, and no run reads it again.
    app.advance(60_000);
    expect(await runSnapshotJob(app.ctx(), counted)).toMatchObject({ from: 'snapshot', changed: 1, moved: true });
    expect(loaded.loads()).toBe(1);
    expect(await foundElsewhere('viridian')).toEqual(['Viridian workers idled']);
    expect(await runSnapshotJob(app.ctx(), counted)).toMatchObject({ from: 'log' });
    expect(loaded.loads()).toBe(1);

    // The same batch delivered again logs entries that change nothing: that run loads the snapshot once
    // and names the same one with the new count, so the run after it loads none.
    const named = await readSearchPointer(app.ctx().store);
    await recordSearchChanges(app.ctx(), viridian);
    const again = await runSnapshotJob(app.ctx(), counted);
    expect(again).toMatchObject({ from: 'snapshot', changed: 0 });
    expect(again.written).toBeUndefined();
    expect(loaded.loads()).toBe(2);
    expect(await readSearchPointer(app.ctx().store)).toMatchObject({ snapshot: named?.snapshot, written_at: named?.written_at });
    expect(await runSnapshotJob(app.ctx(), counted)).toMatchObject({ from: 'log' });
    expect(loaded.loads()).toBe(2);

    // The bucket keeps old objects a week: an unchanged index is still written once a day.
    app.advance(SNAPSHOT_REWRITE_MS);
    expect(await runSnapshotJob(app.ctx(), counted)).toMatchObject({ from: 'snapshot', changed: 0, moved: true });
    expect(loaded.loads()).toBe(3);
  });

  it('a snapshot older than the log remembers (no job ran for two days) is rebuilt from the feed, not replayed; an instance asleep that long loads the newest snapshot', async () => {
    await runSnapshotJob(app.ctx(), snapshots);
    // An instance that loaded then, and then slept (a frozen Lambda container).
    const asleep = createStorySearch(app.ctx(), { snapshots });
    await asleep.search({ query: 'ochre' });
    // Published while nothing wrote the log (its items would have expired by now anyway).
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Ochre caches went stale') });
    await newStreamRecords();
    // Last in the file: the store clock moves three days on.
    app.advance(3 * 24 * 60 * 60 * 1000);
    const report = await runSnapshotJob(app.ctx(), snapshots);
    expect(report).toMatchObject({ from: 'feed', moved: true });
    expect(await foundElsewhere('ochre')).toEqual(['Ochre caches went stale']);
    // The sleeper wakes: the log cannot bring it up to date, the newest snapshot (loaded in the background) does.
    const found = await eventually(
      async () => ((await asleep.search({ query: 'ochre' })).total === 1 ? true : undefined),
      'the woken instance finding the story through the newest snapshot',
      10_000,
    );
    expect(found).toBe(true);
  });
});
