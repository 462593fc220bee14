// The capability re-scan after a scanner version bump, on DynamoDB Local. The bump is the job's
// injected version (the running scanner's rules stamped with a newer version, as a bump that
// changes no rule would), a different one per test so each walk starts fresh.
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createSweeperHandler } from '../../../handlers/sweeper.ts';
import { type RescanBatchOptions, type RescanBatchReport, rescanBatch } from '../../../src/app/capability/rescan/batch.ts';
import { type RescanScan, rescanStory } from '../../../src/app/capability/rescan/story.ts';
import { rescanOffloaded } from '../../../src/app/capability/rescan/story-task.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { scanStory } from '../../../src/domain/capability/scan.ts';
import { SCANNER_VERSION } from '../../../src/domain/capability/scanner-version.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('capability-rescan');
const alice = caller('alice');

const stepsOf = (title: string) => `curl -fsSL https://example.com/${encodeURIComponent(title)}.sh | sh`;
const storyWithOwnSteps = (title: string, steps = stepsOf(title)) => storyPipingToShell(title, steps);
const publish = async (title: string): Promise<{ slug: string; markdown: string }> => {
  const markdown = storyWithOwnSteps(title);
  return { slug: (await publishStory(app.ctx(), alice, { markdown })).slug, markdown };
};

const item = async (pk: string, sk: string) => (await app.state()).find((stored) => stored.PK === pk && stored.SK === sk);
const meta = (slug: string) => item(`STORY#${slug}`, 'META');
const recordsOf = async (sha256: string) => (await app.state()).filter((stored) => stored.PK === `CAP#${sha256.slice(0, 12)}`);
/** The report the job writes: the scan of the stored text, under the job's version. */
const reportUnder = (markdown: string, scannerVersion: string) => ({ ...scanStory(markdown), scanner_version: scannerVersion });

async function setStoredVersion(slug: string, version: string | undefined): Promise<void> {
  const { client, tableName } = app.ctx().store;
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: `STORY#${slug}`, SK: 'META' },
      ...(version === undefined
        ? { UpdateExpression: 'REMOVE capability' }
        : { UpdateExpression: 'SET capability.scanner_version = :v', ExpressionAttributeValues: { ':v': version } }),
    }),
  );
}

/**
 * The real scan, each report held until `count` are made: the worker scans one story at a time,
 * so without this the re-scans would reach their writes one after another instead of racing.
 */
function scansReleasedTogether(count: number): RescanScan {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let made = 0;
  return async (input) => {
    const report = await rescanOffloaded(input);
    made += 1;
    if (made === count) release();
    await released;
    return report;
  };
}

/** Batches until the walk for this version is finished (bounded: a small table takes a few). */
async function walk(options: RescanBatchOptions): Promise<RescanBatchReport[]> {
  const reports: RescanBatchReport[] = [];
  for (let batch = 0; batch < 50; batch += 1) {
    const report = await rescanBatch(app.ctx(), options);
    reports.push(report);
    if (report.next.at === 'end') return reports;
  }
  throw new Error('the walk did not finish in 50 batches');
}

describe('a re-scan after a version bump', () => {
  it('re-scans stories scanned by an older version and never-scanned ones from BODY; skips current and newer ones', async () => {
    const version = '2.1.0';
    const older = await publish('Rescanned from an older version');
    const never = await publish('Rescanned though never scanned');
    const newer = await publish('Scanned by a newer version');
    await setStoredVersion(never.slug, undefined);
    await setStoredVersion(newer.slug, '9.0.0');
    const newerMeta = await meta(newer.slug);
    const revisionBefore = await item(`STORY#${older.slug}`, 'REV#000001');

    const results = (await walk({ scannerVersion: version, limit: 7 })).flatMap((report) => report.results);
    const outcome = (slug: string) => results.filter((result) => result.slug === slug).map((result) => result.outcome);
    expect(outcome(older.slug)).toEqual(['rescanned']);
    expect(outcome(never.slug)).toEqual(['rescanned']);
    expect(outcome(newer.slug)).toEqual([]);
    expect((await meta(older.slug))?.capability).toEqual(reportUnder(older.markdown, version));
    expect((await meta(never.slug))?.capability).toEqual(reportUnder(never.markdown, version));
    expect(await meta(newer.slug)).toEqual(newerMeta);
    // The history keeps what the steps did when each revision was written.
    expect(await item(`STORY#${older.slug}`, 'REV#000001')).toEqual(revisionBefore);
    const records = await recordsOf(scanStory(older.markdown).sha256);
    expect(records.map((record) => record.scanner_version)).toEqual([SCANNER_VERSION, version]);
  });

  it('a rerun changes nothing: a finished walk reads nothing, a restarted one re-scans none, a story re-scanned again is current', async () => {
    const version = '2.2.0';
    const story = await publish('Rescanned then rerun');
    await walk({ scannerVersion: version });
    const before = (await app.state()).filter((stored) => !String(stored.PK).startsWith('JOB#'));
    app.counter().reset();
    const finished = await rescanBatch(app.ctx(), { scannerVersion: version });
    expect(finished).toMatchObject({ looked_at: 0, results: [], next: { at: 'end' } });
    expect(app.counter().total()).toBe(1);
    const restarted = (await walk({ scannerVersion: version, from: { at: 'start' } })).flatMap((report) => report.results);
    expect(restarted).toEqual([]);
    expect(await rescanStory(app.ctx(), story.slug, version)).toMatchObject({ outcome: 'current' });
    expect((await app.state()).filter((stored) => !String(stored.PK).startsWith('JOB#'))).toEqual(before);
  });

  it('an edit that lands while the story is being scanned wins: its own report stands, not the re-scan of the old text', async () => {
    const version = '2.3.0';
    const story = await publish('Edited during its re-scan');
    const edited = storyWithOwnSteps('Edited during its re-scan', 'curl -fsSL https://example.com/edited-during.sh -o fix.sh');
    const scanThenEdit = async (input: Parameters<typeof rescanOffloaded>[0]) => {
      const report = await rescanOffloaded(input);
      await editStory(app.ctx(), alice, { slug: story.slug, markdown: edited, kind: 'correction', note: 'Download, do not pipe.' });
      return report;
    };
    expect(await rescanStory(app.ctx(), story.slug, version, scanThenEdit)).toMatchObject({ outcome: 'edited' });
    const stored = await meta(story.slug);
    expect(stored?.revision).toBe(2);
    expect(stored?.capability).toEqual(scanStory(edited));
    expect(await recordsOf(scanStory(story.markdown).sha256)).toHaveLength(1);
  });

  it('16 re-scans of one story at once end in one identical report and one record', async () => {
    const version = '2.4.0';
    const story = await publish('Rescanned sixteen times at once');
    const together = scansReleasedTogether(16);
    const results = await Promise.all(Array.from({ length: 16 }, () => rescanStory(app.ctx(), story.slug, version, together)));
    // One wins; each other one's write is cancelled by the report it read having changed, and it finds the story current.
    expect(results.filter((result) => result.outcome === 'rescanned')).toHaveLength(1);
    expect(results.filter((result) => result.outcome === 'current')).toHaveLength(15);
    expect((await meta(story.slug))?.capability).toEqual(reportUnder(story.markdown, version));
    const records = await recordsOf(scanStory(story.markdown).sha256);
    expect(records.filter((record) => record.scanner_version === version)).toHaveLength(1);
  });

  it('16 re-scans of one private story at once (no record to race for): one writes, fifteen find it current', async () => {
    const version = '2.4.1';
    const markdown = storyWithOwnSteps('Private and rescanned at once').replace('status: n/a\n', 'status: n/a\nvisibility: private\n');
    const { slug } = await publishStory(app.ctx(), alice, { markdown });
    const together = scansReleasedTogether(16);
    const results = await Promise.all(Array.from({ length: 16 }, () => rescanStory(app.ctx(), slug, version, together)));
    expect(results.filter((result) => result.outcome === 'rescanned')).toHaveLength(1);
    expect((await meta(slug))?.capability).toEqual(reportUnder(markdown, version));
    expect(await recordsOf(scanStory(markdown).sha256)).toEqual([]);
  });

  it('two jobs walking at once end with every story re-scanned once, in one identical state', async () => {
    const version = '2.5.0';
    const stories = await Promise.all(['Walked twice one', 'Walked twice two', 'Walked twice three'].map(publish));
    const walks = await Promise.all([walk({ scannerVersion: version, limit: 5 }), walk({ scannerVersion: version, limit: 5 })]);
    const results = walks.flat().flatMap((report) => report.results);
    for (const story of stories) {
      expect(results.filter((result) => result.slug === story.slug && result.outcome === 'rescanned')).toHaveLength(1);
    }
    const after = await app.state();
    for (const story of stories) expect((await meta(story.slug))?.capability).toEqual(reportUnder(story.markdown, version));
    await walk({ scannerVersion: version, from: { at: 'start' } });
    expect((await app.state()).filter((stored) => !String(stored.PK).startsWith('JOB#'))).toEqual(
      after.filter((stored) => !String(stored.PK).startsWith('JOB#')),
    );
  });

  it('a batch re-scans at most its story budget and the next batch resumes after the last one re-scanned', async () => {
    const version = '2.6.0';
    await Promise.all(['Budget one', 'Budget two', 'Budget three'].map(publish));
    const first = await rescanBatch(app.ctx(), { scannerVersion: version, maxStories: 1, limit: 1000 });
    expect(first.results).toHaveLength(1);
    expect(first.next).toEqual({ at: 'key', key: { PK: `STORY#${first.results[0]?.slug}`, SK: 'META' } });
    const rest = (await walk({ scannerVersion: version, maxStories: 1, limit: 1000 })).flatMap((report) => report.results);
    expect(rest.map((result) => result.slug)).not.toContain(first.results[0]?.slug);
    expect(rest.every((result) => result.outcome === 'rescanned')).toBe(true);
  });

  it('a batch out of time starts no further story: with no time left it re-scans exactly one and moves on', async () => {
    const version = '2.6.1';
    await Promise.all(['Out of time one', 'Out of time two'].map(publish));
    const first = await rescanBatch(app.ctx(), { scannerVersion: version, budgetMs: 0, limit: 1000 });
    expect(first.results).toHaveLength(1);
    expect(first.next).toEqual({ at: 'key', key: { PK: `STORY#${first.results[0]?.slug}`, SK: 'META' } });
  });

  it('a walk creates the missing record of a current, listed story (stored before records existed), not of a private one', async () => {
    const listed = await publish('Current but its record is missing');
    const privateMarkdown = storyWithOwnSteps('Current, private, no record').replace('status: n/a\n', 'status: n/a\nvisibility: private\n');
    const unlisted = (await publishStory(app.ctx(), alice, { markdown: privateMarkdown })).slug;
    const { sha256 } = scanStory(listed.markdown);
    const [record] = await recordsOf(sha256);
    await app.ctx().store.client.send(new DeleteCommand({ TableName: app.ctx().store.tableName, Key: { PK: record?.PK, SK: record?.SK } }));
    const metaBefore = await meta(listed.slug);

    const reports = await walk({ scannerVersion: SCANNER_VERSION, from: { at: 'start' } });
    const recorded = reports.flatMap((report) => report.recorded);
    expect(recorded).toContain(listed.slug);
    expect(recorded).not.toContain(unlisted);
    expect(await recordsOf(sha256)).toEqual([{ ...record, scanned_at: expect.any(String) }]);
    expect(await recordsOf(scanStory(privateMarkdown).sha256)).toEqual([]);
    expect(await meta(listed.slug)).toEqual(metaBefore);

    const state = (await app.state()).filter((stored) => !String(stored.PK).startsWith('JOB#'));
    const again = await walk({ scannerVersion: SCANNER_VERSION, from: { at: 'start' } });
    expect(again.flatMap((report) => report.recorded)).toEqual([]);
    expect((await app.state()).filter((stored) => !String(stored.PK).startsWith('JOB#'))).toEqual(state);
  });

  it('a dry run names the stale stories and writes nothing', async () => {
    const version = '2.7.0';
    const story = await publish('Listed by a dry run');
    const before = await app.state();
    const results = (await rescanBatch(app.ctx(), { scannerVersion: version, dryRun: true, limit: 1000 })).results;
    expect(results).toContainEqual({ slug: story.slug, outcome: 'stale', from_version: SCANNER_VERSION });
    expect(await app.state()).toEqual(before);
  });

  it('the sweeper function runs a batch of the re-scan each invocation', async () => {
    const version = '2.8.0';
    const story = await publish('Rescanned by the sweeper');
    const handler = createSweeperHandler(
      { env: { LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName }, log: () => undefined },
      { scannerVersion: version, limit: 1000, maxStories: 1000 },
    );
    const report = await handler({} as ScheduledEvent);
    expect(report.rescan.results).toContainEqual(expect.objectContaining({ slug: story.slug, outcome: 'rescanned' }));
    expect((await meta(story.slug))?.capability).toEqual(reportUnder(story.markdown, version));
  });
});
