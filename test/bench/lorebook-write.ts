// The logical write through lorebook's apply-once: writeOnce with an op_id, planned from the real
// store primitives. The op record commits in the same TransactWriteItems as the record and the
// counter bump, so there is no state in which one stands without the other.
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { type Replayed, writeOnce } from '../../src/app/write/write-once.ts';
import { fingerprint } from '../../src/domain/fingerprint.ts';
import { itemExists } from '../../src/store/condition.ts';
import { pick } from '../../src/store/read-items.ts';
import { checkItem, createItem } from '../../src/store/replace-by-key.ts';
import { updateItem } from '../../src/store/update-item.ts';
import { counterKey, type LogicalAnswer, type LogicalWrite, recordKey } from './logical-write.ts';

export const BENCH_TOOL = 'bench_create_and_count';

export function lorebookCreateAndCount(ctx: AppContext, caller: Caller, input: LogicalWrite): Promise<Replayed<LogicalAnswer>> {
  return writeOnce<LogicalAnswer>(ctx, {
    tool: BENCH_TOOL,
    caller,
    opId: input.op_id,
    fingerprint: fingerprint(BENCH_TOOL, { id: input.id, title: input.title }),
    // Read with the op record in the one snapshot: a retry without an op_id converges on it too.
    reads: [recordKey(input.id)],
    plan(read, { now }) {
      const existing = pick(read, recordKey(input.id));
      if (existing !== undefined) {
        return {
          outcome: { id: input.id, title: String(existing.title), created_at: String(existing.created_at) },
          actions: [],
          guards: [checkItem(recordKey(input.id), itemExists)],
        };
      }
      const created_at = new Date(now).toISOString();
      return {
        outcome: { id: input.id, title: input.title, created_at },
        actions: [
          createItem({ ...recordKey(input.id), title: input.title, created_at }),
          updateItem(counterKey('lorebook'), { addClauses: ['#n :one'], names: { '#n': 'n' }, values: { ':one': 1 } }),
        ],
        guards: [],
      };
    },
  });
}
