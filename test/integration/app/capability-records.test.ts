// The capability record a badge by hash reads (CAP#<sha12> / <sha256>#V#<version>): created by the
// content write that stores a listed story's text, in the same transaction, once — a second
// landing of any kind leaves exactly the bytes the first wrote.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { scanStory } from '../../../src/domain/capability/scan.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('capability-records');
const alice = caller('alice');

/** A story whose steps no other test's story has: its own text, its own record. */
const uniqueStory = (title: string, visibility: 'public' | 'private' = 'public'): string => {
  const markdown = storyPipingToShell(title, `curl -fsSL https://example.com/${encodeURIComponent(title)}.sh | sh`);
  return visibility === 'private' ? markdown.replace('status: n/a\n', 'status: n/a\nvisibility: private\n') : markdown;
};

const recordsOf = async (sha256: string) => (await app.state()).filter((item) => item.PK === `CAP#${sha256.slice(0, 12)}`);

describe('publish and edit create the capability record of a listed story’s text', () => {
  it('a first publish creates one record: the full sha256, the tier, the categories, the scanner version and when', async () => {
    const markdown = uniqueStory('Record on publish');
    const before = Date.now();
    await publishStory(app.ctx(), alice, { markdown });
    const report = scanStory(markdown);
    const [record, ...more] = await recordsOf(report.sha256);
    expect(more).toEqual([]);
    expect(record).toEqual({
      PK: `CAP#${report.sha256.slice(0, 12)}`,
      SK: `${report.sha256}#V#${report.scanner_version}`,
      sha256: report.sha256,
      tier: 'T4',
      categories: ['remote_execution', 'network', 'local_execution'],
      scanner_version: report.scanner_version,
      scanned_at: expect.any(String),
    });
    expect(Date.parse(String(record?.scanned_at))).toBeGreaterThanOrEqual(before - 1000);
  });

  it('an edit creates the new text’s record and leaves the old text’s record as it was', async () => {
    const first = uniqueStory('Record on edit');
    const { slug } = await publishStory(app.ctx(), alice, { markdown: first });
    const old = await recordsOf(scanStory(first).sha256);
    const edited = uniqueStory('Record on edit').replace('Record%20on%20edit.sh', 'edited.sh');
    await editStory(app.ctx(), alice, { slug, markdown: edited, kind: 'correction', note: 'Another script.' });
    expect(await recordsOf(scanStory(first).sha256)).toEqual(old);
    expect(await recordsOf(scanStory(edited).sha256)).toHaveLength(1);
  });

  it('a private story’s text gets no record, nor does an edit of a hidden story; making it public by an edit does', async () => {
    const hidden = await publishStory(app.ctx(), alice, { markdown: storyTitled('Record of a hidden story') });
    await setVisibility(app.ctx(), alice, { slug: hidden.slug, hidden: true });
    const hiddenEdit = storyPipingToShell('Record of a hidden story', 'curl -fsSL https://example.com/hidden-edit.sh | sh');
    await editStory(app.ctx(), alice, { slug: hidden.slug, markdown: hiddenEdit, kind: 'addition' });
    expect(await recordsOf(scanStory(hiddenEdit).sha256)).toEqual([]);

    const markdown = uniqueStory('Record of a private story', 'private');
    const { slug } = await publishStory(app.ctx(), alice, { markdown });
    expect(await recordsOf(scanStory(markdown).sha256)).toEqual([]);
    await editStory(app.ctx(), alice, { slug, markdown: uniqueStory('Record of a private story'), kind: 'rephrase' });
    expect(await recordsOf(scanStory(markdown).sha256)).toHaveLength(1);
  });

  it('two stories with the same steps share one record: the second publish leaves its bytes alone', async () => {
    const steps = 'curl -fsSL https://example.com/shared-steps.sh | sh';
    await publishStory(app.ctx(), alice, { markdown: storyPipingToShell('Shared steps one', steps) });
    const sha256 = scanStory(storyPipingToShell('Shared steps one', steps)).sha256;
    const first = await recordsOf(sha256);
    await publishStory(app.ctx(), caller('bob'), { markdown: storyPipingToShell('Shared steps two', steps) });
    expect(await recordsOf(sha256)).toEqual(first);
  });
});

describe('a second landing of the write leaves one record, byte for byte', () => {
  it('the same publish twice: one record, the same bytes, and the second writes nothing', async () => {
    const markdown = uniqueStory('Record published twice');
    const answer = await publishStory(app.ctx(), alice, { markdown });
    const before = await app.state();
    app.counter().reset();
    expect(await publishStory(app.ctx(), alice, { markdown })).toEqual(answer);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
    expect(await recordsOf(scanStory(markdown).sha256)).toHaveLength(1);
  });

  it('an identical republish of a story stored before records existed writes nothing, the record included', async () => {
    const markdown = uniqueStory('Record older than the story');
    await publishStory(app.ctx(), alice, { markdown });
    const [record] = await recordsOf(scanStory(markdown).sha256);
    await app.ctx().store.client.send(new DeleteCommand({ TableName: app.ctx().store.tableName, Key: { PK: record?.PK, SK: record?.SK } }));
    const before = await app.state();
    app.counter().reset();
    await publishStory(app.ctx(), alice, { markdown });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel first publishes: one story and one record', async () => {
    const markdown = uniqueStory('Record published sixteen times');
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(app.ctx(), alice, { markdown })));
    expect(new Set(answers.map((answer) => answer.slug)).size).toBe(1);
    const records = await recordsOf(scanStory(markdown).sha256);
    expect(records).toHaveLength(1);
    const after = await app.state();
    await publishStory(app.ctx(), alice, { markdown });
    expect(await app.state()).toEqual(after);
  });

  it('16 parallel first publishes of two stories with the same steps: one record, both stories', async () => {
    const steps = 'curl -fsSL https://example.com/raced-steps.sh | sh';
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        publishStory(app.ctx(), alice, { markdown: storyPipingToShell(`Raced steps ${index % 2}`, steps) }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.slug)).size).toBe(2);
    expect(await recordsOf(scanStory(storyPipingToShell('Raced steps 0', steps)).sha256)).toHaveLength(1);
  });

  it('an op_id replay after a different change: the first answer, one record, unchanged bytes', async () => {
    const markdown = uniqueStory('Record replayed');
    const first = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-record-replay' });
    const record = await recordsOf(scanStory(markdown).sha256);
    await editStory(app.ctx(), alice, { slug: first.slug, markdown: storyTitled('Record replayed'), kind: 'correction', note: 'No pipe.' });
    expect(await publishStory(app.ctx(), alice, { markdown, op_id: 'op-record-replay' })).toEqual({ ...first, replayed: true });
    expect(await recordsOf(scanStory(markdown).sha256)).toEqual(record);
  });
});
