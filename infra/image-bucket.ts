// The bucket uploaded images live in (docs/deploy.md § Images): private (every public-access
// block on; lorebook serves each image itself at /i/<name>, after checking its record), encrypted
// at rest with S3-managed keys, TLS-only, and kept when the stack is deleted, like the table.
// Objects are written whole by PutObject, never by multipart upload, but a lifecycle rule still
// aborts any incomplete multipart upload after a day, so no stray parts are ever billed.
// Versioned: an image deleted (a redaction, an account deletion) or overwritten can be brought
// back for a table restored from before that (docs/backup.md); old versions expire after
// PITR_RECOVERY_DAYS, as far back as a table restore reaches.
// Access is granted per function, by name of action (grantImageAccess): never grantReadWrite,
// which also hands out DeleteObject, ListBucket and more.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { PITR_RECOVERY_DAYS } from './table.ts';

export const IMAGE_ACCESS = {
  /** Uploads write the blob (PutObject) and serving reads it (GetObject). */
  http: ['s3:GetObject', 's3:PutObject'],
  /** The announcer reads a story's own image for the link card's thumbnail. */
  stream: ['s3:GetObject'],
  /** The announcer's thumbnail, and a redaction's images that no stored text names any more (design.md#redaction-export). */
  sweeper: ['s3:GetObject', 's3:DeleteObject'],
} as const;

export function createImageBucket(scope: Construct, id: string): Bucket {
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    versioned: true,
    lifecycleRules: [
      { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      { id: 'expire-old-versions', noncurrentVersionExpiration: Duration.days(PITR_RECOVERY_DAYS) },
    ],
  });
}

/** Object-level actions on the bucket's objects (`<arn>/*`), nothing on the bucket itself. */
export function grantImageAccess(fn: IFunction, bucket: IBucket, actions: readonly string[]): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects('*')] }));
}
