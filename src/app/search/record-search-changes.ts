// The change log's writer (docs/design.md#search): a batch of table stream records becomes one log
// item per record that changes what search indexes. Twice-safe by harmless duplicates rather
// than by a deterministic key: a batch delivered again writes its items again under the new
// time (the key must carry the time of writing, search-log.ts says why), and applying an item
// twice re-reads the same story and changes nothing.

import { writeSearchLog } from '../../store/search/search-log.ts';
import type { AppContext } from '../context/app-context.ts';
import { type StreamRecordShape, searchChangesOf } from './search-change-records.ts';

/** How many log items were written. */
export async function recordSearchChanges(ctx: AppContext, records: readonly StreamRecordShape[]): Promise<number> {
  const changes = searchChangesOf(records);
  if (changes.length > 0) await writeSearchLog(ctx.store, changes);
  return changes.length;
}
