// The steps after a redaction's commit (docs/design.md#redaction-export): the redaction itself strips right
// after its commit; the dispatcher (`npm start`) or the sweeper (the cloud) deletes the images,
// and finishes an event a crash left. The image step needs a Scan and the image store's delete,
// which only the sweeper is granted in the cloud (infra/), so the request path never runs it. Every
// step is idempotent and bounded, so a run that dies anywhere is finished by the next one, and two
// runs at once end in the same state:
//   1. strip: the revisions below the event's number that still hold markdown, 99 a transaction,
//      each transaction also adding the images their texts named to the event;
//   2. images: of those, the ones the author uploaded that no stored text names any more lose
//      their blob, then their record (blob first: a crash in between leaves a record the next
//      run checks again, never a blob no record can lead back to);
//   3. retire the event.

import { imageName } from '../../domain/image/image-name.ts';
import { isImageType } from '../../domain/image/image-type.ts';
import { imagesNamedIn } from '../../domain/image/images-named.ts';
import type { StoredItem, WriteAction } from '../../store/actions.ts';
import { imageKey } from '../../store/image/items.ts';
import { keyOf, outboxKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { listOutboxEvents, retireOutboxEvent } from '../../store/story/outbox-query.ts';
import {
  deleteAuthorsImageRecord,
  noteRedactedImages,
  REDACTION_EVENT_PREFIX,
  type RedactionEvent,
  redactionEventId,
  redactionEventsOf,
  stripRevision,
  toRedactionEvent,
  touchRedactionEvent,
} from '../../store/story/redaction-items.ts';
import { imagesStillNamed, revisionsToStrip } from '../../store/story/redaction-query.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** Events finished in one run; the rest wait for the next. */
export const REDACTIONS_PER_RUN = 10;
/** Images checked by one Scan: each is one `contains` in its filter. */
const IMAGES_PER_SCAN = 50;
/** A strip batch refused by a competing run (a TransactionConflict) is tried again this many times. */
const STRIP_ATTEMPTS = 5;

export interface RedactionRun {
  events: number;
  revisions_stripped: number;
  images_deleted: number;
}

export interface RedactionScope {
  /** One story's events (right after its redaction), else any. */
  slug?: string;
  /** Strip only: an event whose texts named images is left for a run that may delete them. */
  stripOnly?: boolean;
}

/** Finishes the waiting redactions; `events` counts the ones retired. */
export async function finishRedactions(ctx: AppContext, scope: RedactionScope = {}): Promise<RedactionRun> {
  const prefix = scope.slug === undefined ? REDACTION_EVENT_PREFIX : redactionEventsOf(scope.slug);
  const run: RedactionRun = { events: 0, revisions_stripped: 0, images_deleted: 0 };
  for (const item of await listOutboxEvents(ctx.store, prefix, REDACTIONS_PER_RUN)) {
    const done = await finishRedaction(ctx, toRedactionEvent(item), scope.stripOnly === true);
    if (done.retired) run.events += 1;
    run.revisions_stripped += done.revisions_stripped;
    run.images_deleted += done.images_deleted;
  }
  return run;
}

interface Finished {
  revisions_stripped: number;
  images_deleted: number;
  retired: boolean;
}

async function finishRedaction(ctx: AppContext, event: RedactionEvent, stripOnly: boolean): Promise<Finished> {
  const eventKey = outboxKey(redactionEventId(event.slug, event.below));
  const stripped = await stripRevisions(ctx, event, eventKey);
  if (stripped === 'retired') return { revisions_stripped: 0, images_deleted: 0, retired: false };
  const current = await readItem(ctx.store, eventKey);
  if (current === undefined) return { revisions_stripped: stripped, images_deleted: 0, retired: false };
  const { images } = toRedactionEvent(current);
  if (stripOnly && images.length > 0) return { revisions_stripped: stripped, images_deleted: 0, retired: false };
  const images_deleted = await deleteUnnamedImages(ctx, event.author, images);
  // Only once every step is done: a crash before this line runs them again, harmlessly.
  await writeAtomically(ctx.store, [retireOutboxEvent(eventKey)]);
  return { revisions_stripped: stripped, images_deleted, retired: true };
}

/** Strips every revision below the event's number, a page at a time; 'retired' when another run finished the event meanwhile. */
async function stripRevisions(ctx: AppContext, event: RedactionEvent, eventKey: ReturnType<typeof outboxKey>): Promise<number | 'retired'> {
  let stripped = 0;
  let refused = 0;
  for (;;) {
    const page = await revisionsToStrip(ctx.store, event.slug, event.below);
    if (page.length === 0) return stripped;
    try {
      await writeAtomically(ctx.store, stripBatch(page, event, eventKey));
      stripped += page.length;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      // The event is gone: a competing run finished it. Else a competing batch won: read again.
      if ((await readItem(ctx.store, eventKey)) === undefined) return 'retired';
      refused += 1;
      if (refused >= STRIP_ATTEMPTS) throw error;
    }
  }
}

function stripBatch(page: readonly StoredItem[], event: RedactionEvent, eventKey: ReturnType<typeof outboxKey>): WriteAction[] {
  const images = [...new Set(page.flatMap((item) => imagesNamedIn(String(item.markdown ?? ''))))];
  const actions: WriteAction[] = page.map((item) => stripRevision(keyOf(item), event.at));
  // The event's update carries attribute_exists: a batch cannot land after the event is retired.
  actions.push(images.length > 0 ? noteRedactedImages(eventKey, images) : touchRedactionEvent(eventKey));
  return actions;
}

/**
 * The safe rule: an image goes only when the redacting author uploaded it (its record says so)
 * and no stored text names it any more — no story's current text or kept revision, the author's
 * or anyone's, and no draft. Another account that uploaded the same bytes later shares the record
 * of the first upload, so its story names the image and keeps it.
 */
async function deleteUnnamedImages(ctx: AppContext, author: string, candidates: readonly string[]): Promise<number> {
  const images = ctx.images;
  if (images === undefined || candidates.length === 0) return 0;
  let deleted = 0;
  for (let start = 0; start < candidates.length; start += IMAGES_PER_SCAN) {
    const batch = candidates.slice(start, start + IMAGES_PER_SCAN);
    const named = await imagesStillNamed(ctx.store, batch);
    for (const sha256 of batch) {
      if (named.has(sha256)) continue;
      const record = await readItem(ctx.store, imageKey(sha256));
      if (record === undefined || record.uploaded_by !== author || !isImageType(String(record.type))) continue;
      await images.delete(imageName(sha256, record.type as Parameters<typeof imageName>[1]).file);
      try {
        await writeAtomically(ctx.store, [deleteAuthorsImageRecord(sha256, author)]);
        deleted += 1;
      } catch (error) {
        // A competing run deleted it first.
        if (!(error instanceof WriteCancelled)) throw error;
      }
    }
  }
  return deleted;
}
