// The one logical write both idempotency layers protect: create a story-like record keyed by the
// request, and bump a counter. The counter is what a duplicate would show: each business write
// that reaches DynamoDB adds one.
import type { ItemKey } from '../../src/store/keys.ts';

export interface LogicalWrite {
  /** The caller's idempotency key (lorebook's op_id; the Powertools event key). */
  op_id: string;
  /** The record's own key. */
  id: string;
  title: string;
}

export interface LogicalAnswer {
  id: string;
  title: string;
  created_at: string;
}

export const recordKey = (id: string): ItemKey => ({ PK: `BENCH#${id}`, SK: 'META' });

/** One counter per system, so each side's duplicates are counted apart. */
export const counterKey = (system: 'lorebook' | 'powertools'): ItemKey => ({ PK: 'BENCH_COUNTER', SK: system });

let sequence = 0;

/** A new logical request: a fresh op_id and record id. */
export function newWrite(tag: string): LogicalWrite {
  sequence += 1;
  const id = `${tag}-${process.pid}-${sequence}`;
  return { op_id: `op-${id}`, id, title: `Story ${id}` };
}
