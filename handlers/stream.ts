// The stream function: DynamoDB Streams -> the table's side effects. An inserted outbox event is
// fanned out to every recipient's inbox (the dispatcher used by the sweeper, one conditional put
// per recipient, then the event is retired); a story that owes Bluesky work gets one announce
// attempt (claimed, fenced: src/outbox/announce/story.ts); a story change that search indexes
// becomes a change-log item (docs/design.md#search), written for the whole batch at its end. All are
// twice-safe, so a retried or redelivered batch changes nothing.
// Partial batch failures: each record that failed is reported by its SequenceNumber and the rest
// count as done, so one bad record is retried (and, in the end, sent to the DLQ) alone instead of
// redoing the whole batch.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { deleteAccountSteps } from '../src/app/account/run-account-deletions.ts';
import { deliverCorrection } from '../src/outbox/dispatch-notifications.ts';

/** Deletion steps one stream invocation runs per account (each a transaction of at most 50 deletions). */
const STREAM_DELETION_STEPS = 20;

import { announceStory } from '../src/outbox/announce/story.ts';
import { type SearchChange, writeSearchLog } from '../src/store/search/search-log.ts';
import { announcingRuntime } from './announcing-runtime.ts';
import { type HandlerDeps, type Runtime, withMetricsFlushed } from './lambda-runtime.ts';
import { type StreamWork, worksFor } from './stream-records.ts';

export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

interface Tally {
  delivered: number;
  notifications: number;
  alreadyPresent: number;
  announced: Record<string, number>;
  searchChanges: number;
  skipped: number;
  failed: number;
}

export function createStreamHandler(deps: HandlerDeps = {}): StreamHandler {
  const runtime = announcingRuntime(deps);
  return (event) => withMetricsFlushed(async () => handleRecords(await runtime(), event.Records));
}

export async function handleRecords(runtime: Runtime, records: readonly DynamoDBRecord[]): Promise<DynamoDBBatchResponse> {
  const { ctx, announcer, log } = runtime;
  const now = new Date(ctx.store.now()).toISOString();
  const tally: Tally = { delivered: 0, notifications: 0, alreadyPresent: 0, announced: {}, searchChanges: 0, skipped: 0, failed: 0 };
  const failures: string[] = [];
  // One attempt per story per batch: a claim and its completion arrive as records of their own.
  const announcing = new Map<string, Promise<void>>();
  const deleting = new Map<string, Promise<void>>();
  // Search changes are written together at the end, ten puts in flight, not one record at a time.
  const searchChanges: { id: string; change: SearchChange }[] = [];

  const run = async (work: StreamWork, id: string): Promise<void> => {
    if (work.kind === 'deliver') {
      const delivery = await deliverCorrection(ctx, work.event);
      tally.delivered += 1;
      tally.notifications += delivery.notifications_created;
      tally.alreadyPresent += delivery.already_present;
    } else if (work.kind === 'announce' && announcer !== undefined) {
      let attempt = announcing.get(work.slug);
      if (attempt === undefined) {
        attempt = announceStory(ctx, announcer, work.slug).then((result) => {
          tally.announced[result.outcome] = (tally.announced[result.outcome] ?? 0) + 1;
        });
        announcing.set(work.slug, attempt);
      }
      await attempt;
    } else if (work.kind === 'search') {
      searchChanges.push({ id, change: work.change });
    } else if (work.kind === 'delete-account') {
      // One run per account per batch: its steps' own records bring the next batch.
      if (!deleting.has(work.account)) {
        deleting.set(
          work.account,
          deleteAccountSteps(ctx, work.account, STREAM_DELETION_STEPS).then(() => undefined),
        );
      }
      await deleting.get(work.account);
    }
  };

  // In order, one at a time: a fan-out already runs its puts in parallel, and Bluesky's rate
  // limit is per account.
  for (const record of records) {
    const id = record.dynamodb?.SequenceNumber ?? record.eventID ?? 'unknown';
    try {
      const works = worksFor(record, now);
      if (works.length === 0 || (works.every((work) => work.kind === 'announce') && announcer === undefined)) tally.skipped += 1;
      for (const work of works) await run(work, id);
    } catch (error) {
      tally.failed += 1;
      failures.push(id);
      log(
        `lorebook: stream record ${id} (${record.eventName} ${keyText(record)}) failed: ${(error as Error).message ?? String(error)}; reported for retry`,
      );
    }
  }
  if (searchChanges.length > 0) {
    try {
      await writeSearchLog(
        ctx.store,
        searchChanges.map((entry) => entry.change),
      );
      tally.searchChanges = searchChanges.length;
    } catch (error) {
      // The whole set is retried: a second write of the ones that landed is a harmless duplicate.
      const ids = new Set(searchChanges.map((entry) => entry.id));
      tally.failed += ids.size;
      failures.push(...[...ids].filter((id) => !failures.includes(id)));
      log(
        `lorebook: ${searchChanges.length} search change(s) not logged (${(error as Error).message ?? String(error)}); reported for retry`,
      );
    }
  }
  log(`lorebook: stream batch of ${records.length}: ${summary(tally)}`);
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}

function keyText(record: DynamoDBRecord): string {
  const keys = record.dynamodb?.Keys;
  return keys === undefined ? '?' : `${keys.PK?.S ?? '?'} / ${keys.SK?.S ?? '?'}`;
}

function summary(tally: Tally): string {
  const announced = Object.entries(tally.announced).map(([outcome, n]) => `${n} ${outcome}`);
  return [
    `${tally.delivered} event(s) delivered (${tally.notifications} notification(s) created, ${tally.alreadyPresent} already present)`,
    `announce: ${announced.length === 0 ? 'none' : announced.join(', ')}`,
    `${tally.searchChanges} search change(s) logged`,
    `${tally.skipped} skipped`,
    `${tally.failed} failed`,
  ].join('; ');
}

export const handler: StreamHandler = createStreamHandler();
