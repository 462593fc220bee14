// The one place a DynamoDB client is built. An endpoint means DynamoDB Local (dummy credentials,
// region 'local'); no endpoint means AWS with the default credential chain.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

export function createStoreClient(options: StoreClientOptions = {}): DynamoDBDocumentClient {
  const { endpoint, region, maxAttempts = 3, requestTimeoutMs = 5_000 } = options;
  const base = new DynamoDBClient({
    maxAttempts,
    requestHandler: { requestTimeout: requestTimeoutMs, connectionTimeout: Math.min(requestTimeoutMs, 2_000) },
    ...(endpoint === undefined
      ? region === undefined
        ? {}
        : { region }
      : { endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  });
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
