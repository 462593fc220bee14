// STUB, named as such: DynamoDB's global secondary indexes are eventually consistent, so a Query of
// the author index can still list a story a moment after the write that dropped it from the
// index; DynamoDB Local's indexes are current at once and cannot show that. This middleware keeps
// the last answer of the author index (GSI2) and, when told to lag, answers the next such Query
// with it once — the stale page a real index can give — instead of asking DynamoDB Local.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { INDEXES } from '../../src/store/schema.ts';
import { operationName } from './round-trips.ts';

let sequence = 0;

export interface LaggingAuthorIndex {
  /** The next author-index Query answers the page the last one answered. */
  lagOnce(): void;
}

export function laggingAuthorIndex(ctx: AppContext): LaggingAuthorIndex {
  const stack = ctx.store.client.middlewareStack;
  let last: unknown;
  let lag = false;
  stack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string };
      if (operationName(String(context.commandName)) !== 'Query' || input.IndexName !== INDEXES.author.name) return next(args);
      if (lag && last !== undefined) {
        lag = false;
        return last as Awaited<ReturnType<typeof next>>;
      }
      const output = await next(args);
      last = output;
      return output;
    },
    { step: 'initialize', name: `lorebookLaggingAuthorIndex${++sequence}` },
  );
  return {
    lagOnce() {
      lag = true;
    },
  };
}
