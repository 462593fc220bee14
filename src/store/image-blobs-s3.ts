// Image blobs in an S3 bucket (the CDK stack's ImageBucket: LOREBOOK_IMAGE_BUCKET). Objects are
// keyed by their content-hash name, so a second PutObject of the same name writes the same bytes;
// the bucket is private and every read goes through lorebook (GET /i/<name>).
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { storeUnavailable } from './image-blobs-trouble.ts';
import type { ImageBlobs } from './image-blobs.ts';

export interface S3ImageBlobsOptions {
  bucket: string;
  region?: string;
  /** An S3-compatible server instead of AWS (path-style, placeholder credentials, as the DynamoDB client does for DynamoDB Local). */
  endpoint?: string;
}

/** Objects are immutable: browsers and CDNs may keep them for a year (the served answer says the same). */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

const LOCAL_REGION = 'local';
const LOCAL_CREDENTIALS = { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' };

export function imageBlobsInS3(options: S3ImageBlobsOptions, client = s3Client(options)): ImageBlobs {
  const { bucket } = options;
  return {
    describe: `the S3 bucket ${bucket}`,
    async put(file, data, contentType) {
      try {
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: file, Body: data, ContentType: contentType, CacheControl: CACHE_CONTROL }),
        );
      } catch (error) {
        throw storeUnavailable('write', error);
      }
    },
    async get(file) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: file }));
        return object.Body === undefined ? undefined : await object.Body.transformToByteArray();
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw storeUnavailable('read', error);
      }
    },
  };
}

function s3Client(options: S3ImageBlobsOptions): S3Client {
  return new S3Client({
    maxAttempts: 3,
    requestHandler: { requestTimeout: 10_000, connectionTimeout: 2_000 },
    ...(options.endpoint === undefined
      ? options.region === undefined
        ? {}
        : { region: options.region }
      : { endpoint: options.endpoint, forcePathStyle: true, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  });
}
