// A recording proxy in front of DynamoDB Local: every request is forwarded unchanged, and the IAM
// actions it needs are noted — per item operation inside a transaction, since IAM authorises
// TransactWriteItems/TransactGetItems on the underlying PutItem, UpdateItem, DeleteItem,
// ConditionCheckItem and GetItem — with the resource kind (the table, or one of its indexes for
// a Query with IndexName). Lets a test compare what a handler really sends with what its role allows.
// With `capacity: true` it also asks DynamoDB for ReturnConsumedCapacity on every call and sums
// the read and write capacity units it answers (DynamoDB Local computes them by AWS's rules:
// 4 KB reads, 1 KB writes, transactions twice, index writes included) — what on-demand bills.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DynamoDbRecorder {
  url: string;
  /** `table dynamodb:PutItem`, `index dynamodb:Query`, … since the last reset, sorted. */
  actions(): string[];
  /** Calls by operation, and read / write capacity units consumed, since the last reset. */
  usage(): Usage;
  reset(): void;
  close(): Promise<void>;
}

export interface Usage {
  calls: Record<string, number>;
  readUnits: number;
  writeUnits: number;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const WITH_CAPACITY = new Set([...WRITES, 'GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

function unitsOf(answer: Record<string, unknown>): number {
  const consumed = answer.ConsumedCapacity as { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;
  const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
  return list.reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);
}

const TRANSACT_WRITE: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

export function iamActionsOf(operation: string, body: Record<string, unknown>): string[] {
  if (operation === 'TransactWriteItems') {
    return (body.TransactItems as Record<string, unknown>[]).flatMap((item) =>
      Object.keys(item).map((kind) => `table dynamodb:${TRANSACT_WRITE[kind] ?? kind}`),
    );
  }
  if (operation === 'TransactGetItems') return ['table dynamodb:GetItem'];
  if (operation === 'Query' && typeof body.IndexName === 'string') return ['index dynamodb:Query'];
  return [`table dynamodb:${operation}`];
}

export async function startDynamoDbRecorder(target: string, options: { capacity?: boolean } = {}): Promise<DynamoDbRecorder> {
  const seen = new Set<string>();
  let usage: Usage = { calls: {}, readUnits: 0, writeUnits: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_20120810\./, '');
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      for (const action of iamActionsOf(operation, request)) seen.add(action);
      usage.calls[operation] = (usage.calls[operation] ?? 0) + 1;
      const measure = options.capacity === true && WITH_CAPACITY.has(operation);
      if (measure) request.ReturnConsumedCapacity = 'INDEXES';
      // The SDK signed the original body; DynamoDB Local does not check signatures.
      const body = Buffer.from(JSON.stringify(request));
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
      ) as Record<string, string>;
      fetch(target, { method: req.method ?? 'POST', headers, body })
        .then(async (answer) => {
          res.statusCode = answer.status;
          answer.headers.forEach((value, name) => {
            if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') res.setHeader(name, value);
          });
          const bytes = Buffer.from(await answer.arrayBuffer());
          if (measure && answer.ok) {
            const units = unitsOf(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
            if (WRITES.has(operation)) usage.writeUnits += units;
            else usage.readUnits += units;
          }
          res.end(bytes);
        })
        .catch((error: unknown) => {
          res.statusCode = 502;
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    actions: () => [...seen].sort(),
    usage: () => ({ calls: { ...usage.calls }, readUnits: usage.readUnits, writeUnits: usage.writeUnits }),
    reset: () => {
      seen.clear();
      usage = { calls: {}, readUnits: 0, writeUnits: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
