// An https server on 127.0.0.1 with a certificate made for this run (openssl, a throwaway key),
// trusted by this test process only (tls.setDefaultCACertificates adds it beside the system CAs),
// for the clients that insist on https metadata document URLs (the MCP SDK does). Real TLS: the
// certificate is verified, against this one CA.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

export interface HttpsDocumentServer {
  /** https://127.0.0.1:<port> */
  origin: string;
  /** Serves `body` as JSON at `path`; returns its URL. */
  serveJson(path: string, body: (url: string) => unknown): string;
  close(): Promise<void>;
}

function selfSignedFor127(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lorebook-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore', timeout: 20_000 },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttpsDocumentServer(): Promise<HttpsDocumentServer> {
  const { key, cert } = selfSignedFor127();
  setDefaultCACertificates([...getCACertificates('default'), cert]);
  const routes = new Map<string, () => unknown>();
  const server: Server = createServer({ key, cert }, (request, response) => {
    const route = routes.get(new URL(request.url ?? '/', 'https://x').pathname);
    if (route === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(route()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    serveJson(path, body) {
      const url = `${origin}${path}`;
      routes.set(path, () => body(url));
      return url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
