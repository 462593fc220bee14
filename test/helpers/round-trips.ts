// Counts the commands a client sends, by DynamoDB operation name ({ GetItem: 1,
// TransactWriteItems: 1 }), so a test can state "one read, one transaction". A count, not a timer:
// one per command sent, whatever the SDK's retries did underneath.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const READ_OPERATIONS: ReadonlySet<string> = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
export const WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
]);

export type RoundTripCounts = Record<string, number>;

export interface RoundTripCounter {
  /** Counts since the last reset, by operation name. */
  snapshot(): RoundTripCounts;
  total(): number;
  reads(): number;
  writes(): number;
  reset(): void;
  /** Removes the middleware from the client. */
  detach(): void;
}

let counterSequence = 0;

/** Document-client command names (GetCommand) and the operations they send (GetItem). */
const DOCUMENT_COMMANDS: Readonly<Record<string, string>> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

/** `GetCommand` -> `GetItem`, `GetItemCommand` -> `GetItem`, `QueryCommand` -> `Query`. */
export function operationName(commandName: string): string {
  const bare = commandName.replace(/Command$/, '');
  return DOCUMENT_COMMANDS[bare] ?? bare;
}

/** What the count needs of a client's middleware stack: the DynamoDB, document and Streams clients' stacks differ only in their types. */
interface CountableStack {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
    options: { step: 'initialize'; name: string; override: boolean },
  ): void;
  remove(name: string): boolean;
}

export function countRoundTrips(client: DynamoDBClient | DynamoDBDocumentClient | DynamoDBStreamsClient): RoundTripCounter {
  let counts: RoundTripCounts = {};
  const name = `lorebookRoundTripCounter${++counterSequence}`;
  const sum = (filter: (operation: string) => boolean): number =>
    Object.entries(counts).reduce((total, [operation, n]) => (filter(operation) ? total + n : total), 0);
  const stack = client.middlewareStack as unknown as CountableStack;

  stack.add(
    (next, context) => async (args) => {
      const operation = operationName(String(context.commandName ?? 'Unknown'));
      counts[operation] = (counts[operation] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );

  return {
    snapshot: () => ({ ...counts }),
    total: () => sum(() => true),
    reads: () => sum((operation) => READ_OPERATIONS.has(operation)),
    writes: () => sum((operation) => WRITE_OPERATIONS.has(operation)),
    reset: () => {
      counts = {};
    },
    detach: () => {
      stack.remove(name);
    },
  };
}
