// The dispatcher as `npm start` runs it (src/outbox/dispatch-soon.ts): right after an edit that
// committed a correction's outbox event, every interval as a backstop, and once at start — on
// DynamoDB Local, next to the other dispatchers of the cloud (the stream function) and of other
// processes, each reproducer told once.
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, storeRuntime } from '../../../handlers/lambda-runtime.ts';
import { handleRecords } from '../../../handlers/stream.ts';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { markNotificationsRead } from '../../../src/app/mark-notifications-read.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { dispatchNotifications } from '../../../src/outbox/dispatch-notifications.ts';
import { type NotificationDispatch, startNotificationDispatch } from '../../../src/outbox/dispatch-soon.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { eventually } from '../../helpers/eventually.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { readStreamRecords } from '../../helpers/local-stream.ts';
import { useOutside } from '../../helpers/outside.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('dispatch-soon', {}, { stream: true });
const outside = useOutside(app);
const alice = caller('alice');
const HOUR_MS = 3_600_000;
/** Generous for a loaded machine; the dispatcher itself needs a few round trips. */
const WITHIN_MS = 10_000;
const logs: string[] = [];
const log = (line: string): void => void logs.push(line);

let dispatch: NotificationDispatch | undefined;
afterEach(async () => {
  await dispatch?.stop();
  dispatch = undefined;
});

/** The context `npm start` builds: the dispatcher on the app's client, wired as dispatchSoon. */
function startDispatch(intervalMs: number): AppContext {
  dispatch = startNotificationDispatch(app.ctx(), { intervalMs, log });
  return { ...app.ctx(), dispatchSoon: dispatch.soon };
}

const reproducers = (tag: string, count: number): string[] =>
  Array.from({ length: count }, (_v, index) => `acct-${tag}-${String(index).padStart(3, '0')}`);

/** A story by alice with `accounts` as its reproducers (written from outside, as report_reproduction would). */
async function reproducedStory(title: string, accounts: readonly string[]): Promise<string> {
  const { slug } = await publishStory(outside(), alice, { markdown: storyTitled(title) });
  await updateStoryMeta(outside(), slug, {
    expression: 'ADD #reproducers :accounts',
    names: { '#reproducers': 'reproducers' },
    values: { ':accounts': new Set(accounts) },
  });
  return slug;
}

const correct = (ctx: AppContext, slug: string, title: string) =>
  editStory(ctx, alice, { slug, markdown: storyTitled(title, { extra: 'Corrected.' }), kind: 'correction', note: 'Step 2 was wrong.' });

const corrections = async (slug: string) => (await storedNotifications(app, { story: slug })).filter((item) => item.kind === 'correction');

const outboxOf = async (slug: string) => (await app.state()).filter((item) => item.PK === 'OUTBOX' && item.slug === slug);

/** Every recipient has it and the event is retired (the dispatcher retires it after the last put). */
const delivered = (slug: string, count: number) => async () =>
  (await corrections(slug)).length >= count && (await outboxOf(slug)).length === 0 ? true : undefined;

describe('npm start runs the dispatcher itself: a correction reaches every reproducer', () => {
  it('right after the commit, with no backstop due and no other dispatcher: every reproducer has it within seconds', async () => {
    const title = 'Told right after the commit';
    const accounts = reproducers('soon', 20);
    const slug = await reproducedStory(title, accounts);
    const ctx = startDispatch(HOUR_MS);
    const answer = await correct(ctx, slug, title);
    expect(answer.notified).toBe(20);
    await eventually(delivered(slug, 20), 'the correction in every inbox', WITHIN_MS);
    expect((await corrections(slug)).map((item) => item.PK).sort()).toEqual(accounts.map((account) => `INBOX#${account}`));
    expect(await outboxOf(slug)).toEqual([]);
  });

  it('the backstop delivers an event whose run after the commit was lost (the process that committed it died)', async () => {
    const title = 'Left for the backstop';
    const slug = await reproducedStory(title, reproducers('backstop', 3));
    startDispatch(200);
    // Committed by a process without a dispatcher of its own: nothing asks for a run.
    expect((await correct(outside(), slug, title)).notified).toBe(3);
    await eventually(delivered(slug, 3), 'the correction delivered by the backstop', WITHIN_MS);
    expect(await outboxOf(slug)).toEqual([]);
  });

  it('a start delivers what an earlier process left on the outbox, without waiting for the interval', async () => {
    const title = 'Left by an earlier process';
    const slug = await reproducedStory(title, reproducers('earlier', 2));
    await correct(outside(), slug, title);
    startDispatch(HOUR_MS);
    await eventually(delivered(slug, 2), 'the correction delivered at start', WITHIN_MS);
  });

  it('a burst of corrections while a run is in progress asks for one more run, not one per correction', async () => {
    app.counter().reset();
    startDispatch(HOUR_MS);
    // The run at start is in progress: these fold into one run after it.
    for (let request = 0; request < 50; request += 1) dispatch?.soon();
    // Each run Queries the outbox three times: corrections, redactions left half done (design.md#redaction-export)
    // and account deletions under way (design.md#account-deletion).
    await eventually(async () => ((app.counter().snapshot().Query ?? 0) >= 6 ? true : undefined), 'two runs', WITHIN_MS);
    await dispatch?.stop();
    expect(app.counter().snapshot().Query).toBe(6);
  });
});

describe('the run after the commit, the backstop, the stream function and another process at once', () => {
  let runtime: Runtime;
  beforeAll(() => {
    runtime = storeRuntime({ LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName }, log);
  });

  it('a correction to 150 reproducers creates exactly one notification per reproducer, and keeps a read one read', async () => {
    const title = 'Dispatched from everywhere at once';
    const accounts = reproducers('everywhere', 150);
    const slug = await reproducedStory(title, accounts);
    // A backstop due every 20 ms: it overlaps the run after the commit and the others below.
    const ctx = startDispatch(20);
    expect((await correct(ctx, slug, title)).notified).toBe(150);
    const records = (await readStreamRecords(testEndpoint(), app.ctx().store.client, app.ctx().store.tableName)).filter(
      (record: DynamoDBRecord) =>
        record.eventName === 'INSERT' && record.dynamodb?.NewImage?.slug?.S === slug && record.dynamodb.Keys?.PK?.S === 'OUTBOX',
    );
    expect(records).toHaveLength(1);
    // The stream function twice (a redelivered batch) and another process's dispatcher, in parallel.
    await Promise.all([handleRecords(runtime, records), handleRecords(runtime, records), dispatchNotifications(outside())]);
    await eventually(delivered(slug, 150), 'the correction in every inbox', WITHIN_MS);
    const reader = accounts[7] as string;
    const readOne = (await corrections(slug)).find((item) => item.PK === `INBOX#${reader}`) as Record<string, unknown>;
    await markNotificationsRead(outside(), { account: reader, handle: 'reader.test' }, { ids: [String(readOne.SK)] });
    // Redelivered once more, after the reader read it, while the backstop keeps running.
    await handleRecords(runtime, records);
    await dispatch?.stop();

    const told = await corrections(slug);
    expect(told).toHaveLength(150);
    expect(new Set(told.map((item) => item.PK)).size).toBe(150);
    expect(told.find((item) => item.PK === `INBOX#${reader}`)?.read).toBe(true);
    expect(told.filter((item) => item.read === true)).toHaveLength(1);
    expect(await outboxOf(slug)).toEqual([]);
  });
});
