// The image bucket in the synthesized template: private, encrypted, TLS-only, retained, with a
// lifecycle rule for incomplete multipart uploads, versioned; the functions know it by name and may only
// put (http) and get (all three) its objects — no delete, no listing, nothing on the bucket.
import { describe, expect, it } from 'vitest';
import { PITR_RECOVERY_DAYS } from '../../../../infra/table.ts';
import { actionsOf, logicalId, resourcesOf, roleStatements, synthesize } from '../synth.ts';

const { json } = synthesize({ blueskyIdentifier: 'lorebook.example.com' });
const bucketId = logicalId(json, 'AWS::S3::Bucket', 'ImageBucket');
const bucket = json.Resources[bucketId];
const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] };
const fn = (prefix: string) => logicalId(json, 'AWS::Lambda::Function', prefix);

const s3Grants = (prefix: string) =>
  roleStatements(json, fn(prefix))
    .filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')))
    .filter((statement) => JSON.stringify(statement.Resource).includes(bucketId))
    .map((statement) => ({ effect: statement.Effect, actions: actionsOf(statement).sort(), resource: statement.Resource }));

describe('the image bucket', () => {
  it('is one of two buckets (images, search snapshots), blocks every kind of public access, and is encrypted at rest with S3-managed keys', () => {
    expect(resourcesOf(json, 'AWS::S3::Bucket')).toHaveLength(2);
    expect(bucket?.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket?.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    expect(bucket?.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
  });

  it('aborts incomplete multipart uploads after a day, keeps old versions as long as a table restore reaches back, and is kept when the stack goes', () => {
    expect(bucket?.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket?.Properties.LifecycleConfiguration).toEqual({
      Rules: [
        { Id: 'abort-incomplete-multipart-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
        { Id: 'expire-old-versions', NoncurrentVersionExpiration: { NoncurrentDays: PITR_RECOVERY_DAYS }, Status: 'Enabled' },
      ],
    });
    expect(bucket?.DeletionPolicy).toBe('Retain');
  });

  it('refuses any request that is not over TLS (its bucket policy)', () => {
    const [, policy] =
      resourcesOf(json, 'AWS::S3::BucketPolicy').find(
        ([, candidate]) => JSON.stringify(candidate.Properties.Bucket) === JSON.stringify({ Ref: bucketId }),
      ) ?? [];
    expect(policy?.Properties.Bucket).toEqual({ Ref: bucketId });
    expect((policy?.Properties.PolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]);
  });
});

describe('who may touch the images', () => {
  it('http may PutObject and GetObject on its objects, and nothing else of this bucket', () => {
    expect(s3Grants('Http')).toEqual([{ effect: 'Allow', actions: ['s3:GetObject', 's3:PutObject'], resource: objects }]);
  });

  it('stream may only GetObject (the link card thumbnail); the sweeper may also DeleteObject (a redaction, design.md#redaction-export)', () => {
    expect(s3Grants('Stream')).toEqual([{ effect: 'Allow', actions: ['s3:GetObject'], resource: objects }]);
    expect(s3Grants('Sweeper')).toEqual([{ effect: 'Allow', actions: ['s3:DeleteObject', 's3:GetObject'], resource: objects }]);
  });

  it('every function is told the bucket by name, in LOREBOOK_IMAGE_BUCKET', () => {
    for (const prefix of ['Http', 'Stream', 'Sweeper']) {
      const environment = (json.Resources[fn(prefix)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(environment.LOREBOOK_IMAGE_BUCKET, prefix).toEqual({ Ref: bucketId });
    }
  });
});
