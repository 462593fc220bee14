// The same logical write through Powertools for AWS Lambda idempotency: makeIdempotent with its
// DynamoDB persistence layer (an INPROGRESS record put before the function, COMPLETED with the
// answer after it). The function is the plain business write a Powertools user relies on it to
// protect: the record and the counter bump in one TransactWriteItems, without conditions of its
// own. `conditioned` adds lorebook's kind of guard (create the record only once) to show what
// that changes after a crash.

import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { counterKey, type LogicalAnswer, type LogicalWrite, recordKey } from './logical-write.ts';

export interface PowertoolsOptions {
  endpoint: string;
  itemsTable: string;
  idempotencyTable: string;
  /** Powertools' default is 3600; lorebook keeps ops 24 h. */
  expiresAfterSeconds?: number;
  /** Create the record with attribute_not_exists, as lorebook does. */
  conditioned?: boolean;
  /** Runs inside the function, around its business write (the process-death simulation). */
  hooks?: { beforeWrite?(): Promise<void>; afterWrite?(): Promise<void> };
}

/** A Lambda context as Powertools reads it: only the remaining time matters (in-progress expiry). */
export interface LambdaContextLike {
  getRemainingTimeInMillis(): number;
}

export interface PowertoolsWrite {
  client: DynamoDBClient;
  /** The idempotent function; pass a context to get Powertools' in-progress expiry, as in Lambda. */
  call(input: LogicalWrite, context?: LambdaContextLike): Promise<LogicalAnswer>;
  /** How many times the function body (the business write) started. */
  runs(): number;
  destroy(): void;
}

// Same client settings as lorebook's store client (src/store/client.ts).
export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' },
    maxAttempts: 3,
    requestHandler: { requestTimeout: 5_000, connectionTimeout: 2_000 },
  });
}

/** Powertools' documented table: partition key `id`, TTL on `expiration`. */
export async function createIdempotencyTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true } }),
  );
}

export function powertoolsCreateAndCount(options: PowertoolsOptions): PowertoolsWrite {
  const client = localClient(options.endpoint);
  const documents = DynamoDBDocumentClient.from(client);
  let runs = 0;
  const persistenceStore = new DynamoDBPersistenceLayer({ tableName: options.idempotencyTable, awsSdkV3Client: client });
  // The op_id is the key; the arguments are validated against the stored hash, like lorebook's
  // fingerprint. One config per wrapper: a handler registers its Lambda context on its config.
  const config = (): IdempotencyConfig =>
    new IdempotencyConfig({
      eventKeyJmesPath: 'op_id',
      payloadValidationJmesPath: '[id, title]',
      expiresAfterSeconds: options.expiresAfterSeconds ?? 24 * 60 * 60,
    });

  const business = async (input: LogicalWrite): Promise<LogicalAnswer> => {
    runs += 1;
    await options.hooks?.beforeWrite?.();
    const created_at = new Date().toISOString();
    await documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: options.itemsTable,
              Item: { ...recordKey(input.id), title: input.title, created_at },
              ...(options.conditioned === true ? { ConditionExpression: 'attribute_not_exists(PK)' } : {}),
            },
          },
          {
            Update: {
              TableName: options.itemsTable,
              Key: counterKey('powertools'),
              UpdateExpression: 'ADD #n :one',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeNames: { '#n': 'n' },
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );
    await options.hooks?.afterWrite?.();
    return { id: input.id, title: input.title, created_at };
  };

  const plain = makeIdempotent(business, { persistenceStore, config: config(), keyPrefix: 'bench' });
  const handler = makeIdempotent(async (input: LogicalWrite, _context: LambdaContextLike) => business(input), {
    persistenceStore,
    config: config(),
    keyPrefix: 'bench',
  });

  return {
    client,
    call: (input, context) => (context === undefined ? plain(input) : handler(input, context)),
    runs: () => runs,
    destroy: () => client.destroy(),
  };
}

/**
 * Outside Lambda, Powertools warns on every call that it cannot read the remaining time (its
 * in-progress records then get no in-progress expiry, which the report says); the benchmark
 * drops that one line.
 */
export function silenceLambdaContextWarning(): void {
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Could not determine remaining time left')) return;
    warn(...args);
  };
}
