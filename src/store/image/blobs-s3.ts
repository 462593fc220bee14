// Image blobs in an S3 bucket (the CDK stack's ImageBucket: LOREBOOK_IMAGE_BUCKET). Objects are
// keyed by their content-hash name, so a second PutObject of the same name writes the same bytes;
// the bucket is private and every read goes through lorebook (GET /i/<name>). The S3 SDK is
// imported on the first image read or write, not at start: most requests never touch an image,
// and the http function's cold start stays inside its size bound (docs/deploy.md).

import { lazyS3 } from '../lazy-s3.ts';
import type { ImageBlobs } from './blobs.ts';
import { storeUnavailable } from './blobs-trouble.ts';

export interface S3ImageBlobsOptions {
  bucket: string;
  region?: string;
  /** An S3-compatible server instead of AWS (path-style, placeholder credentials, as the DynamoDB client does for DynamoDB Local). */
  endpoint?: string;
}

/** Objects are immutable: browsers and CDNs may keep them for a year (the served answer says the same). */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function imageBlobsInS3(options: S3ImageBlobsOptions): ImageBlobs {
  const { bucket } = options;
  const connect = lazyS3(options, 10_000);
  return {
    describe: `the S3 bucket ${bucket}`,
    async put(file, data, contentType) {
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: file, Body: data, ContentType: contentType, CacheControl: CACHE_CONTROL }),
        );
      } catch (error) {
        throw storeUnavailable('write', error);
      }
    },
    async get(file) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: file }));
        return object.Body === undefined ? undefined : await object.Body.transformToByteArray();
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw storeUnavailable('read', error);
      }
    },
    // S3 answers a delete of a missing key with success, so a retry is harmless.
    async delete(file) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: file }));
      } catch (error) {
        throw storeUnavailable('delete', error);
      }
    },
  };
}
