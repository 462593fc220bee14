// The bucket search index snapshots live in (docs/design.md#search): private, encrypted at rest with
// S3-managed keys, TLS-only. Unlike images it is not kept when the stack goes: every snapshot can
// be rebuilt from the table (the first snapshot job after a deploy does it from the feed index).
// A lifecycle rule removes snapshots a week old: the job writes a fresh one at least daily, so
// the one the pointer names is never that old, and the losers of a race or of a killed job go.
// Access by name of action, as for images: the http function only reads, the sweeper (the
// snapshot job) reads and writes; nothing may delete or list.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { SNAPSHOT_PREFIX } from '../src/store/search/search-snapshots-s3.ts';

export const SEARCH_ACCESS = {
  /** Instances load the snapshot the pointer names. */
  http: ['s3:GetObject'],
  /** The snapshot job loads the current one and writes the next. */
  sweeper: ['s3:GetObject', 's3:PutObject'],
} as const;

/** Older than this, a snapshot is no one's: SNAPSHOT_REWRITE_MS (a day) keeps the named one younger. */
export const SNAPSHOT_EXPIRY_DAYS = 7;

export function createSearchBucket(scope: Construct, id: string): Bucket {
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      { id: 'expire-old-snapshots', prefix: SNAPSHOT_PREFIX, expiration: Duration.days(SNAPSHOT_EXPIRY_DAYS) },
      { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
  });
}

/** Object-level actions on the snapshots (`<arn>/snapshots/*`), nothing on the bucket itself. */
export function grantSearchAccess(fn: IFunction, bucket: IBucket, actions: readonly string[]): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects(`${SNAPSHOT_PREFIX}*`)] }));
}
