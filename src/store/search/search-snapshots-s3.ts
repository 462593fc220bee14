// Search snapshots in an S3 bucket (the CDK stack's SearchBucket: LOREBOOK_SEARCH_BUCKET). Every
// object has a name of its own, written once by one job; the bucket's lifecycle rule removes old
// ones (infra/search-bucket.ts), so prune asks for nothing and the functions need no DeleteObject.
// The S3 SDK is imported on first use, as for images: most requests never load a snapshot.
import type { S3Client } from '@aws-sdk/client-s3';
import { snapshotsUnavailable, type SearchSnapshots } from './search-snapshots.ts';

export interface S3SearchSnapshotsOptions {
  bucket: string;
  region?: string;
  /** An S3-compatible server instead of AWS (path-style, placeholder credentials). */
  endpoint?: string;
}

/** Where the snapshots live in the bucket: the lifecycle rule names the same prefix. */
export const SNAPSHOT_PREFIX = 'snapshots/';

const LOCAL_REGION = 'local';
const LOCAL_CREDENTIALS = { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' };

type S3Sdk = typeof import('@aws-sdk/client-s3');

export function searchSnapshotsInS3(options: S3SearchSnapshotsOptions): SearchSnapshots {
  const { bucket } = options;
  let connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  const connect = (): Promise<{ sdk: S3Sdk; client: S3Client }> => {
    connected ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: s3Client(sdk, options) }));
    return connected;
  };
  return {
    describe: `the S3 bucket ${bucket}`,
    async put(name, data) {
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: `${SNAPSHOT_PREFIX}${name}`, Body: data, ContentType: 'application/gzip' }),
        );
      } catch (error) {
        throw snapshotsUnavailable('write', error);
      }
    },
    async get(name) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: `${SNAPSHOT_PREFIX}${name}` }));
        return object.Body === undefined ? undefined : await object.Body.transformToByteArray();
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw snapshotsUnavailable('read', error);
      }
    },
    async prune() {},
    async remove() {},
  };
}

function s3Client(sdk: S3Sdk, options: S3SearchSnapshotsOptions): S3Client {
  return new sdk.S3Client({
    maxAttempts: 3,
    // A snapshot at 100k stories is ~70 MB gzip: a minute, not the 10 s an image gets.
    requestHandler: { requestTimeout: 60_000, connectionTimeout: 2_000 },
    ...(options.endpoint === undefined
      ? options.region === undefined
        ? {}
        : { region: options.region }
      : { endpoint: options.endpoint, forcePathStyle: true, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  });
}
