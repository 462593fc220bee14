// Search snapshots in an S3 bucket (the CDK stack's SearchBucket: LOREBOOK_SEARCH_BUCKET). Every
// object has a name of its own, written once by one job; the bucket's lifecycle rule removes old
// ones (infra/search-bucket.ts), so prune asks for nothing and the functions need no DeleteObject.
// The S3 SDK is imported on first use, as for images: most requests never load a snapshot.
import { lazyS3 } from '../lazy-s3.ts';
import { type SearchSnapshots, snapshotsUnavailable } from './search-snapshots.ts';

export interface S3SearchSnapshotsOptions {
  bucket: string;
  region?: string;
  /** An S3-compatible server instead of AWS (path-style, placeholder credentials). */
  endpoint?: string;
}

/** Where the snapshots live in the bucket: the lifecycle rule names the same prefix. */
export const SNAPSHOT_PREFIX = 'snapshots/';

export function searchSnapshotsInS3(options: S3SearchSnapshotsOptions): SearchSnapshots {
  const { bucket } = options;
  // A snapshot at 100k stories is ~70 MB gzip: a minute, not the 10 s an image gets.
  const connect = lazyS3(options, 60_000);
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
