// The one place a DynamoDB client is built (and the Streams client that reads the table's stream
// under `npm start`). An endpoint means DynamoDB Local (dummy credentials, region 'local'); no
// endpoint means AWS with the default credential chain.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface StoreClientOptions {
  /** DynamoDB Local, e.g. http://127.0.0.1:8000. Omit for AWS. */
  endpoint?: string;
  /** AWS region; ignored for DynamoDB Local (always 'local'). */
  region?: string;
  /** Attempts per command including the first (the SDK's retry strategy). Default 3. */
  maxAttempts?: number;
  /** Per HTTP request: a hung server fails the attempt instead of hanging the caller. Default 5000. */
  requestTimeoutMs?: number;
}

export const LOCAL_REGION = 'local';
// DynamoDB Local never verifies credentials, but since 2.0 it refuses an access key id with
// anything but letters and digits ("The Access Key ID or security token is invalid").
const LOCAL_CREDENTIALS = { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' };

function clientConfig(options: StoreClientOptions) {
  const { endpoint, region, maxAttempts = 3, requestTimeoutMs = 5_000 } = options;
  return {
    maxAttempts,
    requestHandler: { requestTimeout: requestTimeoutMs, connectionTimeout: Math.min(requestTimeoutMs, 2_000) },
    ...(endpoint === undefined
      ? region === undefined
        ? {}
        : { region }
      : { endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  };
}

/** The Streams API of the same store (DynamoDB Local serves it on the table's own endpoint). */
export function createStreamsClient(options: StoreClientOptions = {}): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient(clientConfig(options));
}

export function createStoreClient(options: StoreClientOptions = {}): DynamoDBDocumentClient {
  const base = new DynamoDBClient(clientConfig(options));
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
