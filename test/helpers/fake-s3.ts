// A FAKE S3 for tests: a loopback HTTP server that speaks the two object calls lorebook makes
// (PutObject, GetObject and DeleteObject, path-style `/<bucket>/<key>`, NoSuchKey as S3's XML error), so the
// real @aws-sdk/client-s3 client can be pointed at it by endpoint. AWS is not reachable from the
// test machines; this stands in for exactly those calls, records which were made, and can fail
// on request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3 {
  url: string;
  bucket: string;
  /** `s3:PutObject`, `s3:GetObject`, … in IAM's names, each once, sorted. */
  actions(): string[];
  reset(): void;
  /** The objects stored, by key. */
  objects(): ReadonlyMap<string, { body: Buffer; contentType: string | undefined; cacheControl: string | undefined }>;
  /** Answer the next `count` requests with a 503 SlowDown. */
  failNext(count: number): void;
  close(): Promise<void>;
}

const xmlError = (code: string, message: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startFakeS3(bucket = 'lorebook-images-test'): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined; cacheControl: string | undefined }>();
  const actions = new Set<string>();
  let failures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const [, inBucket = '', ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const answer = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/xml', ...headers }).end(body);
      };
      if (failures > 0) {
        failures -= 1;
        answer(503, xmlError('SlowDown', 'injected by the fake'));
        return;
      }
      if (inBucket !== bucket || key === '') {
        actions.add(`s3:${req.method} ${url.pathname}`);
        answer(400, xmlError('InvalidRequest', `the fake holds one bucket, ${bucket}, and answers object calls only`));
        return;
      }
      if (req.method === 'PUT') {
        actions.add('s3:PutObject');
        objects.set(key, {
          body: Buffer.concat(chunks),
          contentType: req.headers['content-type'],
          cacheControl: req.headers['cache-control'],
        });
        answer(200, '', { etag: '"fake"' });
      } else if (req.method === 'GET') {
        actions.add('s3:GetObject');
        const object = objects.get(key);
        if (object === undefined) answer(404, xmlError('NoSuchKey', 'The specified key does not exist.'));
        else
          answer(200, object.body, {
            'content-type': object.contentType ?? 'application/octet-stream',
            'content-length': String(object.body.length),
          });
      } else if (req.method === 'DELETE') {
        // As S3: deleting a key that holds nothing succeeds too.
        actions.add('s3:DeleteObject');
        objects.delete(key);
        answer(204, '');
      } else {
        actions.add(`s3:${req.method} ${url.pathname}`);
        answer(400, xmlError('InvalidRequest', 'the fake answers PutObject, GetObject and DeleteObject only'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket,
    actions: () => [...actions].sort(),
    reset: () => actions.clear(),
    objects: () => objects,
    failNext: (count) => {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
