// A recording proxy in front of DynamoDB Local: every request is forwarded unchanged, and the IAM
// actions it needs are noted — per item operation inside a transaction, since IAM authorises
// TransactWriteItems/TransactGetItems on the underlying PutItem, UpdateItem, DeleteItem,
// ConditionCheckItem and GetItem — with the resource kind (the table, or one of its indexes for
// a Query with IndexName). Lets a test compare what a handler really sends with what its role allows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DynamoDbRecorder {
  url: string;
  /** `table dynamodb:PutItem`, `index dynamodb:Query`, … since the last reset, sorted. */
  actions(): string[];
  reset(): void;
  close(): Promise<void>;
}

const TRANSACT_WRITE: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

export function iamActionsOf(operation: string, body: Record<string, unknown>): string[] {
  if (operation === 'TransactWriteItems') {
    return (body.TransactItems as Record<string, unknown>[]).flatMap((item) => Object.keys(item).map((kind) => `table dynamodb:${TRANSACT_WRITE[kind] ?? kind}`));
  }
  if (operation === 'TransactGetItems') return ['table dynamodb:GetItem'];
  if (operation === 'Query' && typeof body.IndexName === 'string') return ['index dynamodb:Query'];
  return [`table dynamodb:${operation}`];
}

export async function startDynamoDbRecorder(target: string): Promise<DynamoDbRecorder> {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_20120810\./, '');
      for (const action of iamActionsOf(operation, JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>)) seen.add(action);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
      fetch(target, { method: req.method ?? 'POST', headers, body })
        .then(async (answer) => {
          res.statusCode = answer.status;
          answer.headers.forEach((value, name) => {
            if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') res.setHeader(name, value);
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
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
    reset: () => seen.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
