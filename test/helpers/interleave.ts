// A deterministic race: `competing` runs after the app's next read of `operation` has returned
// and before the app sends its write, so a test can put a competing write exactly in the window
// a condition guards — every time, not by luck of scheduling.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { operationName } from './round-trips.ts';

let sequence = 0;

/** `only` picks which read of that operation (by its input): e.g. the one that reads a given key. */
export function afterNextRead(
  ctx: AppContext,
  competing: () => Promise<unknown>,
  operation = 'TransactGetItems',
  only: (input: unknown) => boolean = () => true,
): void {
  const stack = ctx.store.client.middlewareStack;
  const name = `lorebookInterleave${++sequence}`;
  let armed = true;
  stack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (armed && operationName(String(context.commandName)) === operation && only(args.input)) {
        armed = false;
        stack.remove(name);
        await competing();
      }
      return output;
    },
    { step: 'initialize', name },
  );
}
