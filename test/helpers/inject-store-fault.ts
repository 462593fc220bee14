// FAULT INJECTION (a named mock): one chosen call of the real DynamoDB Local client fails at a
// chosen moment, the way a crash or a dropped connection would make it fail. Every other call goes
// to the server untouched.
//   before         the call never reaches the server (connection reset): nothing was applied.
//   response-lost  the server applied the call, then its response was lost: the SDK call throws.
//   sdk-resend     the server applied the call, its response was lost inside the SDK's retry
//                  loop, so the SDK sends the very same request a second time.
// Calls are numbered in the order the client sends them (0 = the first command after injecting).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { operationName } from './round-trips.ts';

export type FaultMoment = 'before' | 'response-lost' | 'sdk-resend';

export interface InjectedStoreFault {
  /** The operation the fault hit (e.g. TransactWriteItems), once it has fired. */
  firedOn(): string | undefined;
  remove(): void;
}

let sequence = 0;

/** What a dropped connection looks like to the SDK: a transient error it would retry itself. */
function connectionLost(what: string): Error {
  return Object.assign(new Error(`socket hang up (injected: ${what})`), {
    name: 'TimeoutError',
    code: 'ECONNRESET',
    $metadata: {},
  });
}

export function injectStoreFault(client: DynamoDBDocumentClient, at: { call: number; moment: FaultMoment }): InjectedStoreFault {
  const stack = client.middlewareStack;
  const outer = `lorebookInjectStoreFault${++sequence}`;
  const inner = `${outer}Attempt`;
  let calls = 0;
  let fired: string | undefined;
  // The chosen call, marked at the initialize step so the SDK's own retries of it are one call.
  const target = new WeakSet<object>();

  stack.add(
    (next, context) => async (args) => {
      const index = calls;
      calls += 1;
      if (index !== at.call || fired !== undefined) return next(args);
      const operation = operationName(String(context.commandName));
      if (at.moment === 'before') {
        fired = operation;
        throw connectionLost(`${operation} never sent`);
      }
      if (at.moment === 'response-lost') {
        const output = await next(args);
        fired = operation;
        void output;
        throw connectionLost(`${operation} applied, response lost`);
      }
      target.add(context);
      return next(args);
    },
    { step: 'initialize', name: outer, override: true },
  );

  // Inside the retry loop (finalizeRequest runs once per attempt): the first attempt of the chosen
  // call reaches the server, then fails as transient, so the SDK resends the same request.
  stack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (target.has(context) && fired === undefined) {
        fired = operationName(String(context.commandName));
        throw connectionLost(`${fired} applied, response lost, the SDK resends it`);
      }
      return output;
    },
    { step: 'finalizeRequest', priority: 'low', name: inner, override: true },
  );

  return {
    firedOn: () => fired,
    remove: () => {
      stack.remove(outer);
      stack.remove(inner);
    },
  };
}
