// An account's request bodies past MAX_BODY_BYTES (image uploads: up to 5 MiB on /v1/images, 7.5 MB
// as base64 on /mcp) are read one call at a time (docs/design.md#admission). Its image re-encodes
// run one at a time already (fair-cpu): a body read before its turn only waited in memory, and six
// read at once cost the serving thread six bodies' worth of chunks in one burst, which made other
// callers' slowest calls (BENCHMARKS.md §11). The next call's body waits unread, so TCP backpressure
// holds the sender at no CPU cost, until the call before has answered; a line already full, or a
// wait past its bound, is refused `rate_limited` with nothing read or written. Per process: another
// instance keeps its own line.
import { LorebookError } from '../domain/errors.ts';
import { MAX_BODY_BYTES } from './body.ts';

export interface LargeBodyLineSettings {
  /** Calls of one account waiting behind the one being read; past it a call is refused at once. */
  waiting: number;
  /** The longest a call waits for its turn before it is refused. */
  waitMs: number;
}

/** 16 waiting: an agent fanning out the same upload 16 times (a retry storm) is served in turn, not refused. */
export const LARGE_BODY_LINE: LargeBodyLineSettings = { waiting: 16, waitMs: 20_000 };
/** What a refused call is told to wait: about one large upload's turn. */
const RETRY_AFTER_MS = 1000;

/** One call's place: `take` waits for the account's turn (once, however often called), `release` gives it up. */
export interface LargeBodyTurn {
  take(): Promise<void>;
  release(): void;
}

export type LargeBodyLine = (account: string) => LargeBodyTurn;

/** An account's line while one of its calls holds the turn: the calls waiting behind it. */
interface Line {
  waiting: Array<{ start(): void }>;
}

export function createLargeBodyLine(settings: LargeBodyLineSettings = LARGE_BODY_LINE): LargeBodyLine {
  const lines = new Map<string, Line>();
  const next = (account: string, line: Line): void => {
    const first = line.waiting.shift();
    if (first === undefined) lines.delete(account);
    else first.start();
  };
  return (account) => {
    let taken: Promise<void> | undefined;
    /** The line whose turn this call holds, once it does. */
    let holding: Line | undefined;
    let released = false;
    const enter = (): Promise<void> => {
      const line = lines.get(account);
      if (line === undefined) {
        holding = { waiting: [] };
        lines.set(account, holding);
        return Promise.resolve();
      }
      if (line.waiting.length >= settings.waiting) return Promise.reject(refused('full', settings));
      return new Promise<void>((resolve, reject) => {
        const place = {
          start() {
            clearTimeout(timer);
            // A call answered while it waited leaves its turn to the next.
            if (released) return next(account, line);
            holding = line;
            resolve();
          },
        };
        const timer = setTimeout(() => {
          line.waiting.splice(line.waiting.indexOf(place), 1);
          reject(refused('waited', settings));
        }, settings.waitMs);
        line.waiting.push(place);
      });
    };
    return {
      take: () => {
        // Read after its call has answered (a route that admits first and reads after): no place to hold.
        taken ??= released ? Promise.resolve() : enter();
        return taken;
      },
      release() {
        if (released) return;
        released = true;
        if (holding !== undefined) next(account, holding);
      },
    };
  };
}

function refused(why: 'full' | 'waited', settings: LargeBodyLineSettings): LorebookError {
  const state =
    why === 'full'
      ? 'Your account already has a large upload being read and others waiting behind it'
      : "Your account's large uploads before this one took too long";
  return new LorebookError(
    'rate_limited',
    `${state}: bodies past ${MAX_BODY_BYTES / 1024} KiB (image uploads) are read one call at a time per account. Nothing was read or stored; send the same call again after retry_after_ms (${RETRY_AFTER_MS} ms).`,
    { retryAfterMs: RETRY_AFTER_MS, details: { reason: 'large_body_line', waiting_limit: settings.waiting } },
  );
}
