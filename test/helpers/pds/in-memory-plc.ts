// A small in-memory did:plc directory for the test PDS: it keeps each DID's operations in a Map
// and answers the few routes a PDS and an identity resolver call (POST /<did>, GET /<did>,
// /<did>/data, /<did>/log, /<did>/log/last). It checks no signatures: it only ever serves the
// PDS the test started, on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatDidDoc, opToData } from '@did-plc/lib';

export interface InMemoryPlc {
  url: string;
  /** The operations stored for a DID, oldest first. */
  operations(did: string): unknown[];
  close(): Promise<void>;
}

type Op = Parameters<typeof opToData>[1];

const MAX_BODY_BYTES = 64 * 1024;

export async function startInMemoryPlc(): Promise<InMemoryPlc> {
  const log = new Map<string, Op[]>();
  const server: Server = createServer((req, res) => {
    void handle(log, req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    operations: (did) => [...(log.get(did) ?? [])],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(log: Map<string, Op[]>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://plc.invalid');
  const [rawDid = '', ...rest] = url.pathname.slice(1).split('/');
  const did = decodeURIComponent(rawDid);
  if (did === '_health') return send(res, 200, { version: 'in-memory' });
  if (req.method === 'POST' && rest.length === 0) {
    const op = JSON.parse(await body(req)) as Op;
    log.set(did, [...(log.get(did) ?? []), op]);
    return send(res, 200, {});
  }
  const ops = log.get(did);
  const last = ops?.at(-1);
  if (req.method !== 'GET' || ops === undefined || last === undefined) return send(res, 404, { message: `DID not registered: ${did}` });
  const route = rest.join('/');
  if (route === 'log/last') return send(res, 200, last);
  if (route === 'log') return send(res, 200, ops);
  const data = opToData(did, last);
  if (data === null) return send(res, 404, { message: `DID tombstoned: ${did}` });
  if (route === 'data') return send(res, 200, data);
  if (route === '') return send(res, 200, formatDidDoc(data));
  return send(res, 404, { message: `unknown route ${url.pathname}` });
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('PLC operation too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
