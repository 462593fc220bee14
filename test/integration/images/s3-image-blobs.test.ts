// The S3 adapter of the image store through the real @aws-sdk/client-s3, against a FAKE S3 on
// loopback (test/helpers/fake-s3.ts; AWS is not reachable here): the object is written under its
// content-hash name with its type and the immutable cache header, read back byte for byte, a
// missing object is "none", and S3 trouble is the retryable store_unavailable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageBlobsInS3 } from '../../../src/store/image/blobs-s3.ts';
import { type FakeS3, startFakeS3 } from '../../helpers/fake-s3.ts';
import { refusal } from '../../helpers/refusal.ts';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startFakeS3();
});
afterAll(() => s3.close());

const blobs = () => imageBlobsInS3({ bucket: s3.bucket, endpoint: s3.url });
const NAME = `${'5e'.repeat(32)}.png`;

describe('image blobs in S3', () => {
  it('puts the bytes under the name with their type and a year of immutable cache, and gets them back', async () => {
    const data = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await blobs().put(NAME, data, 'image/png');
    expect(s3.objects().get(NAME)).toMatchObject({ contentType: 'image/png', cacheControl: 'public, max-age=31536000, immutable' });
    expect(await blobs().get(NAME)).toEqual(data);
  });

  it('a delete removes the object, and deleting it again is no error (a redaction retried)', async () => {
    await blobs().put(NAME, new Uint8Array([1, 2, 3]), 'image/png');
    await blobs().delete(NAME);
    expect(await blobs().get(NAME)).toBeUndefined();
    await blobs().delete(NAME);
  });

  it('a name nothing was stored under is undefined, not an error', async () => {
    expect(await blobs().get(`${'00'.repeat(32)}.webp`)).toBeUndefined();
  });

  it('S3 answering 503 on every attempt is store_unavailable, retryable, for a put and a get', async () => {
    s3.failNext(3);
    const put = await refusal(blobs().put(NAME, new Uint8Array([1]), 'image/png'));
    expect(put).toMatchObject({ code: 'store_unavailable', retryable: true });
    s3.failNext(3);
    expect(await refusal(blobs().get(NAME))).toMatchObject({ code: 'store_unavailable', retryable: true });
  });
});
