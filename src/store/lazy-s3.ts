// An S3 client made on first use, shared by the S3 adapters (images, search snapshots): the SDK is
// imported then, not at start, so the http function's cold start stays inside its size bound.
// With an endpoint it talks to an S3-compatible server (path-style, placeholder credentials, as
// the DynamoDB client does for DynamoDB Local).
import type { S3Client } from '@aws-sdk/client-s3';

export type S3Sdk = typeof import('@aws-sdk/client-s3');

export interface S3Target {
  region?: string;
  endpoint?: string;
}

const LOCAL_REGION = 'local';
const LOCAL_CREDENTIALS = { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' };

/** The SDK and one client, loaded by the first call and shared by every later one. */
export function lazyS3(target: S3Target, requestTimeoutMs: number): () => Promise<{ sdk: S3Sdk; client: S3Client }> {
  let connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  return () =>
    (connected ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        maxAttempts: 3,
        requestHandler: { requestTimeout: requestTimeoutMs, connectionTimeout: 2_000 },
        ...(target.endpoint === undefined
          ? target.region === undefined
            ? {}
            : { region: target.region }
          : { endpoint: target.endpoint, forcePathStyle: true, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
      }),
    })));
}
