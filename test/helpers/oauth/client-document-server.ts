// A loopback http server that hosts Client ID Metadata Documents for the e2e tests, as a client's
// own website would: each path answers a document (or a fault) the test installs, and every
// request is counted with the If-None-Match it carried, so caching is observable.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DocumentRoute = (request: IncomingMessage, response: ServerResponse) => void;

export interface ClientDocumentServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  serve(path: string, route: DocumentRoute): string;
  /** A JSON document at `path` whose client_id is its own URL, unless `fields` says otherwise. */
  serveDocument(path: string, fields: Record<string, unknown>, headers?: Record<string, string>): string;
  requests(path: string): { ifNoneMatch: string | undefined }[];
  close(): Promise<void>;
}

export async function startClientDocumentServer(): Promise<ClientDocumentServer> {
  const routes = new Map<string, DocumentRoute>();
  const seen = new Map<string, { ifNoneMatch: string | undefined }[]>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.set(path, [...(seen.get(path) ?? []), { ifNoneMatch: request.headers['if-none-match'] }]);
    const route = routes.get(path);
    if (route === undefined) response.writeHead(404).end();
    else route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serve = (path: string, route: DocumentRoute): string => {
    routes.set(path, route);
    return `${origin}${path}`;
  };
  return {
    origin,
    serve,
    serveDocument(path, fields, headers = {}) {
      const url = `${origin}${path}`;
      const body = JSON.stringify({ client_id: url, ...fields });
      return serve(path, (request, response) => {
        const etag = headers.ETag;
        if (etag !== undefined && request.headers['if-none-match'] === etag) response.writeHead(304, headers).end();
        else response.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(body);
      });
    },
    requests: (path) => seen.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
