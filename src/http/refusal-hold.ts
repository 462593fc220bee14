// Refused callers do not get to keep the cores busy (docs/design.md#admission). A request refused
// with its budget (429) while any of its body is still unread, or with its token (401) while a
// body larger than anyone may send (MAX_BODY_BYTES), or a chunked body of no declared length, is
// still unread, is answered only after a hold: nothing of it is read meanwhile, so TCP
// backpressure stops the sender at no CPU cost, instead of the server draining the body to answer
// it and the sender re-sending at once. A 429 is held at most its retry_after_ms, and answers what
// is left of it; the answer closes the connection (`Connection: close`), so nothing more is read
// or pipelined on it. Held sockets are capped per address and overall; past the cap a new one is
// closed unanswered. Only under @hono/node-server (a socket to hold): elsewhere, and for a call
// admitted or a body already read, the refusal is answered at once as before.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { LorebookError } from '../domain/errors.ts';
import type { RefusalHoldSettings } from '../settings/refusal-hold-settings.ts';
import type { ClientAddress } from './admission.ts';
import { MAX_BODY_BYTES } from './body.ts';
import type { HttpEnv } from './http-env.ts';

/** What to answer a refusal with: the error (its retry_after_ms less the time held) and whether to close, or nothing (closed unanswered). */
export type HeldRefusal = { error: LorebookError; close: boolean } | undefined;

export type RefusalHold = (c: Context<HttpEnv>, error: LorebookError) => Promise<HeldRefusal>;

export function createRefusalHold(settings: RefusalHoldSettings, clientAddress: ClientAddress): RefusalHold {
  const heldBy = new Map<string, number>();
  let total = 0;
  return async (c, error) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming === undefined || !worthHolding(error, incoming)) return { error, close: false };
    const address = clientAddress(c) ?? 'unknown';
    const byAddress = heldBy.get(address) ?? 0;
    if (total >= settings.total || byAddress >= settings.perAddress) {
      incoming.socket.destroy();
      return undefined;
    }
    total += 1;
    heldBy.set(address, byAddress + 1);
    const started = performance.now();
    try {
      await heldFor(incoming, Math.min(settings.holdMs, error.retryAfterMs ?? settings.holdMs));
    } finally {
      total -= 1;
      const left = (heldBy.get(address) ?? 1) - 1;
      if (left === 0) heldBy.delete(address);
      else heldBy.set(address, left);
    }
    return { error: lessWait(error, Math.round(performance.now() - started)), close: true };
  };
}

/**
 * A 429 with any of its body unread: it answers when its caller may retry anyway, and held, a
 * caller that re-sends at once after each 429 sends one body per hold instead of dozens a second,
 * each read in full after its answer (~0.6 ms of the serving thread for 240 KB). A 401 only past
 * the limit: a genuine caller whose token just expired gets its answer at once.
 */
function worthHolding(error: LorebookError, incoming: IncomingMessage): boolean {
  if (incoming.complete) return false;
  if (error.code === 'rate_limited') return true;
  return error.code === 'unauthenticated' && unreadPastLimit(incoming);
}

/**
 * A body not read to its end that is declared past what anyone may send, or that declares no
 * length at all (chunked): what is still to come of it may be anything. A small chunked body has
 * usually arrived whole by the time its caller is refused, and is answered at once.
 */
function unreadPastLimit(incoming: IncomingMessage): boolean {
  if (incoming.complete) return false;
  const declared = incoming.headers['content-length'];
  return declared === undefined ? incoming.headers['transfer-encoding'] !== undefined : Number(declared) > MAX_BODY_BYTES;
}

/** Waits the hold out, or until the caller hangs up (then no answer is delivered anyway). */
function heldFor(incoming: IncomingMessage, ms: number): Promise<void> {
  const socket = incoming.socket;
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    socket.once('close', done);
  });
}

/** The same refusal with what is left of its retry_after_ms, the wait its message quotes included. */
function lessWait(error: LorebookError, heldMs: number): LorebookError {
  if (error.retryAfterMs === undefined) return error;
  const left = Math.max(0, error.retryAfterMs - heldMs);
  return new LorebookError(error.code, error.message.replace(`${error.retryAfterMs} ms`, `${left} ms`), {
    retryAfterMs: left,
    retryable: error.retryable,
    ...(error.details === undefined ? {} : { details: error.details }),
    cause: error,
  });
}
