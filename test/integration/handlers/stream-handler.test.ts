// The real handlers/stream.ts fed the table's own stream records, read from DynamoDB Local's
// Streams API after real writes (report_reproduction x150, then a correction through
// edit_story), in Lambda-sized batches.
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, storeRuntime } from '../../../handlers/lambda-runtime.ts';
import { handleRecords } from '../../../handlers/stream.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { runBounded } from '../../../src/outbox/run-bounded.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { batchesOf, readStreamRecords } from '../../helpers/local-stream.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('lambda-stream-handler', {}, { stream: true });
const alice = caller('alice');
const logs: string[] = [];
let runtime: Runtime;
/** Stream records already handed to a test: each test takes only what its own writes produced. */
let seen = 0;

beforeAll(() => {
  runtime = storeRuntime(
    { LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName },
    (line) => void logs.push(line),
  );
});

async function newStreamRecords(): Promise<DynamoDBRecord[]> {
  const all = await readStreamRecords(testEndpoint(), app.ctx().store.client, app.ctx().store.tableName);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

/** Delivers the records as Lambda would: batches of 100, in order; the failures of every batch. */
async function deliver(records: readonly DynamoDBRecord[]): Promise<string[]> {
  const failures: string[] = [];
  for (const batch of batchesOf(records, 100)) {
    const answer = await handleRecords(runtime, batch);
    failures.push(...answer.batchItemFailures.map((failure) => failure.itemIdentifier));
  }
  return failures;
}

/**
 * As Lambda does: records reported as failed (a request timed out on a loaded machine) are
 * handed over again, a bounded number of times; what still fails is returned.
 */
async function deliverWithRetries(records: readonly DynamoDBRecord[], firstFailures?: string[]): Promise<string[]> {
  let failed = new Set(firstFailures ?? (await deliver(records)));
  for (let retry = 0; retry < 5 && failed.size > 0; retry += 1) {
    failed = new Set(await deliver(records.filter((record) => failed.has(String(record.dynamodb?.SequenceNumber)))));
  }
  return [...failed];
}

/** A story by alice reproduced by `count` accounts through report_reproduction, then corrected. */
async function correctedStory(title: string, count: number): Promise<string> {
  const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(title) });
  const reproducers = Array.from({ length: count }, (_v, index) =>
    caller(`${title.slice(0, 8).toLowerCase().replace(/\W/g, '')}-${index}`),
  );
  await runBounded(reproducers, 16, (who) => reportReproduction(app.ctx(), who, { slug, result: 'worked' }));
  await editStory(app.ctx(), alice, {
    slug,
    markdown: storyTitled(title, { extra: 'Corrected.' }),
    kind: 'correction',
    note: 'The timeout is 30 s, not 3 s.',
  });
  return slug;
}

const corrections = async (slug: string) => (await storedNotifications(app, { story: slug })).filter((item) => item.kind === 'correction');

// The first two tests make 150 and 40 real reproductions and deliver every record twice: seconds
// alone, but CI's loaded machine once needed more than the 30 s default.
describe('handlers/stream.ts on DynamoDB Local stream records', () => {
  it('a correction to 150 reproducers yields exactly 150 notifications, also when the same batches are delivered twice', async () => {
    const slug = await correctedStory('Corrected for one fifty via the stream', 150);
    const records = await newStreamRecords();
    const outboxInserts = records.filter((record) => record.eventName === 'INSERT' && record.dynamodb?.Keys?.PK?.S === 'OUTBOX');
    expect(outboxInserts).toHaveLength(1);

    expect(await deliverWithRetries(records)).toEqual([]);
    const delivered = await corrections(slug);
    expect(delivered).toHaveLength(150);
    expect(new Set(delivered.map((item) => item.PK)).size).toBe(150);
    expect((await app.state()).filter((item) => item.PK === 'OUTBOX')).toEqual([]);
    const after = await app.state();

    // The same batches again (a retried or redelivered shard): nothing changes but the search
    // change log, which takes harmless duplicates (its items carry the time of writing, docs/design.md#search).
    const mark = logs.length;
    expect(await deliverWithRetries(records)).toEqual([]);
    expect(await corrections(slug)).toHaveLength(150);
    const notLog = (items: Record<string, unknown>[]) => items.filter((item) => !String(item.PK).startsWith('SEARCHLOG#'));
    const logged = (items: Record<string, unknown>[]) =>
      items.filter((item) => String(item.PK).startsWith('SEARCHLOG#')).map((item) => item.slug);
    const again = await app.state();
    expect(notLog(again)).toEqual(notLog(after));
    expect(logged(again)).toEqual([...logged(after), ...logged(after)].sort());
    expect(logged(after).length).toBeGreaterThan(0);
    expect(logs.slice(mark).some((line) => line.includes('0 notification(s) created, 150 already present'))).toBe(true);
  }, 120_000);

  it('the same records handled by 16 invocations at once (failed records handed over again) still yield one notification per reproducer', async () => {
    const slug = await correctedStory('Corrected under sixteen deliveries', 40);
    const records = await newStreamRecords();
    const failures = (await Promise.all(Array.from({ length: 16 }, () => deliver(records)))).flat();
    expect(await deliverWithRetries(records, failures)).toEqual([]);
    const delivered = await corrections(slug);
    expect(delivered).toHaveLength(40);
    expect(new Set(delivered.map((item) => item.PK)).size).toBe(40);
  }, 120_000);

  it('one bad record in a batch is the only one reported; the rest of the batch is applied', async () => {
    const slug = await correctedStory('Corrected beside a bad record', 3);
    const records = await newStreamRecords();
    const insert = records.find((record) => record.eventName === 'INSERT' && record.dynamodb?.Keys?.PK?.S === 'OUTBOX') as DynamoDBRecord;
    // An outbox event no dispatcher can read (its recipients missing), under a sequence number of its own.
    const { recipients: _recipients, ...broken } = insert.dynamodb?.NewImage ?? {};
    const badSequence = `${insert.dynamodb?.SequenceNumber}9`;
    const bad: DynamoDBRecord = {
      ...insert,
      eventID: 'bad-record',
      dynamodb: {
        ...insert.dynamodb,
        SequenceNumber: badSequence,
        NewImage: { ...broken, SK: { S: 'correction#unreadable#2' } },
        Keys: { PK: { S: 'OUTBOX' }, SK: { S: 'correction#unreadable#2' } },
      },
    };
    const middle = Math.floor(records.length / 2);
    const batch = [...records.slice(0, middle), bad, ...records.slice(middle)];

    const answer = await handleRecords(runtime, batch);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: badSequence }]);
    expect(await corrections(slug)).toHaveLength(3);
    expect(logs.some((line) => line.includes(`stream record ${badSequence}`) && line.includes('is not a correction event'))).toBe(true);
  });

  it('records that are no work of the stream function (reports, op records, notifications) change nothing', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Only reports follow') });
    await newStreamRecords();
    await reportReproduction(app.ctx(), caller('quiet'), { slug, result: 'partial', op_id: 'op-quiet-1' });
    const records = await newStreamRecords();
    expect(records.length).toBeGreaterThan(0);
    const before = await app.allItems();
    expect(await deliver(records)).toEqual([]);
    expect(await app.allItems()).toEqual(before);
  });
});
