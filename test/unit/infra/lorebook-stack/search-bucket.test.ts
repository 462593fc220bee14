// The search snapshot bucket in the synthesized template: private, encrypted, TLS-only, retained,
// old snapshots expired by a lifecycle rule; http may only read snapshots, the sweeper (the
// snapshot job) read and write them, the stream function nothing; every function knows it by name.
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_EXPIRY_DAYS } from '../../../../infra/search-bucket.ts';
import { SNAPSHOT_REWRITE_MS } from '../../../../src/app/search/search-snapshot-job.ts';
import { actionsOf, logicalId, roleStatements, synthesize } from '../synth.ts';

const { json } = synthesize({ blueskyIdentifier: 'lorebook.example.com' });
const bucketId = logicalId(json, 'AWS::S3::Bucket', 'SearchBucket');
const bucket = json.Resources[bucketId];
const snapshots = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/snapshots/*']] };
const fn = (prefix: string) => logicalId(json, 'AWS::Lambda::Function', prefix);

const searchGrants = (prefix: string) =>
  roleStatements(json, fn(prefix))
    .filter((statement) => JSON.stringify(statement.Resource).includes(bucketId))
    .map((statement) => ({ effect: statement.Effect, actions: actionsOf(statement).sort(), resource: statement.Resource }));

describe('the search bucket', () => {
  it('blocks every kind of public access, is encrypted with S3-managed keys, and is kept when the stack goes', () => {
    expect(bucket?.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket?.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    expect(bucket?.DeletionPolicy).toBe('Retain');
  });

  it('expires snapshots a week old, longer than the day after which the job writes the named one again', () => {
    expect(bucket?.Properties.LifecycleConfiguration).toEqual({
      Rules: [
        { Id: 'expire-old-snapshots', Prefix: 'snapshots/', ExpirationInDays: SNAPSHOT_EXPIRY_DAYS, Status: 'Enabled' },
        { Id: 'abort-incomplete-multipart-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
      ],
    });
    expect(SNAPSHOT_EXPIRY_DAYS * 24 * 60 * 60 * 1000).toBeGreaterThan(2 * SNAPSHOT_REWRITE_MS);
  });
});

describe('who may touch the snapshots', () => {
  it('http may only GetObject; the sweeper GetObject and PutObject; the stream function nothing', () => {
    expect(searchGrants('Http')).toEqual([{ effect: 'Allow', actions: ['s3:GetObject'], resource: snapshots }]);
    expect(searchGrants('Sweeper')).toEqual([{ effect: 'Allow', actions: ['s3:GetObject', 's3:PutObject'], resource: snapshots }]);
    expect(searchGrants('Stream')).toEqual([]);
  });

  it('every function is told the bucket by name, in LOREBOOK_SEARCH_BUCKET', () => {
    for (const prefix of ['Http', 'Stream', 'Sweeper']) {
      const environment = (json.Resources[fn(prefix)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(environment.LOREBOOK_SEARCH_BUCKET, prefix).toEqual({ Ref: bucketId });
    }
  });
});
