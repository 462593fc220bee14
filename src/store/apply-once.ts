// Primitive 4 — apply once per op_id. The op record is written in the SAME TransactWriteItems as
// the change, so there is no in-progress state and no window where a crash leaves the change
// done but unrecorded. It is keyed per caller (OP#account), so two accounts never share an op.
import { LorebookError } from '../domain/errors.ts';
import type { PutAction, StoredItem } from './actions.ts';
import { type ItemKey, opKey } from './keys.ts';
import { replaceItem } from './replace-by-key.ts';
import { epochSeconds, isExpired } from './store.ts';

export interface OpRequest {
  account: string;
  opId: string;
  tool: string;
  /** Versioned hash of the normalised input (domain `fingerprint`): `v1:<sha256>`. */
  fingerprint: string;
}

export function opRecordKey(op: OpRequest): ItemKey {
  return opKey(op.account, op.opId);
}

/**
 * Records the op and its durable outcome. The condition lets a lingering expired record be
 * replaced (DynamoDB deletes TTL'd items days late) and stops a second record for a live op;
 * `<=` matches isExpired exactly, so in the expiry second read and write agree;
 * on failure the runner returns the existing record, so the loser can replay it.
 */
export function recordOp(op: OpRequest, outcome: unknown, nowMs: number, ttlSeconds: number): PutAction {
  return replaceItem(
    {
      ...opRecordKey(op),
      tool: op.tool,
      fingerprint: op.fingerprint,
      outcome,
      created_at: new Date(nowMs).toISOString(),
      expires_at: epochSeconds(nowMs) + ttlSeconds,
    },
    { expression: 'attribute_not_exists(PK) OR expires_at <= :now', values: { ':now': epochSeconds(nowMs) } },
  );
}

export type OpLookup<T> = { kind: 'new' } | { kind: 'replay'; outcome: T };

/**
 * What a stored op record means for this request: nothing (absent or expired), a replay of the
 * stored outcome, or `idempotency_key_reused` for other arguments.
 */
export function lookUpOp<T>(record: StoredItem | undefined, op: OpRequest, nowMs: number): OpLookup<T> {
  if (record === undefined || isExpired(record, nowMs)) return { kind: 'new' };
  if (record.fingerprint !== op.fingerprint || record.tool !== op.tool) {
    throw new LorebookError(
      'idempotency_key_reused',
      `op_id "${op.opId}" was already used for a different ${String(record.tool)} call. An op_id names one request: replay it with exactly the same arguments, or use a new op_id for a new request.`,
      { details: { op_id: op.opId, tool: record.tool } },
    );
  }
  return { kind: 'replay', outcome: record.outcome as T };
}
