// FAULT INJECTION (a named mock): DynamoDB Local runs transactions one at a time and never
// answers TransactionConflict, so this middleware makes the next `times` TransactWriteItems (or
// TransactGetItems) calls fail the way AWS does under contention, before they reach the server.
// Everything else goes to the real DynamoDB Local.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface InjectedConflicts {
  /** How many TransactWriteItems calls were refused so far. */
  injected(): number;
  remove(): void;
}

let sequence = 0;

export function injectTransactionConflicts(
  client: DynamoDBDocumentClient,
  times: number,
  command: 'TransactWrite' | 'TransactGet' = 'TransactWrite',
  /** The reason on the first action: AWS also cancels with ThrottlingError under load. */
  code: 'TransactionConflict' | 'ThrottlingError' = 'TransactionConflict',
): InjectedConflicts {
  let injected = 0;
  const name = `lorebookInjectTransactionConflict${++sequence}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const isTransaction = String(context.commandName).startsWith(command);
      if (isTransaction && injected < times) {
        injected += 1;
        const items = ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
        throw Object.assign(new Error(`Transaction cancelled, please refer cancellation reasons for specific reasons [${code}]`), {
          name: 'TransactionCanceledException',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: Array.from({ length: items }, (_, i) => (i === 0 ? { Code: code, Message: 'injected' } : { Code: 'None' })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );
  return { injected: () => injected, remove: () => client.middlewareStack.remove(name) };
}
