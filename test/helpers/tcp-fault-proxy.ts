// A TCP proxy on 127.0.0.1 in front of a server (the test PDS), for outages of every shape at
// the connection level, below HTTP: what a load balancer, a firewall or a dying host does to a
// client's sockets, pooled keep-alive ones included. One mode at a time, switched by the test:
//   forward  bytes go both ways (the server answers again)
//   refuse   the listener is closed: connecting fails with ECONNREFUSED (same port on return)
//   destroy  every connection, open or new, is destroyed as soon as it exists or sends a byte
//   hang     connections are accepted (and open ones kept) but nothing is ever answered
//   503      every request gets an HTTP 503 and the connection is closed
// Switching mode applies to connections already open, as a real outage would: a destroy or a
// refuse cuts them, a 503 answers their next request, and a hang silences them for good — a
// connection that went silent stays silent after the outage (as behind a load balancer that lost
// its state: only new connections are answered again), so a client reusing a pooled socket hangs
// while a fresh connection is answered at once. Every connection is counted.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'destroy' | 'hang' | '503';

export interface TcpFaultProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  mode(): ProxyMode;
  /** Switches mode; resolves once the listener is closed (refuse) or listening again. */
  set(mode: ProxyMode): Promise<void>;
  /** Connections accepted so far, in any mode. */
  accepted(): number;
  /** Connections that were joined to the server (mode forward). */
  forwarded(): number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream?: Socket;
  /** Silenced by a hang: nothing passes either way, ever again. */
  silent: boolean;
}

const UNAVAILABLE_BODY = JSON.stringify({ error: 'ServiceUnavailable', message: 'the fault proxy answers 503' });
const UNAVAILABLE = `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(UNAVAILABLE_BODY)}\r\n\r\n${UNAVAILABLE_BODY}`;

export async function startTcpFaultProxy(target: { port: number; host?: string }): Promise<TcpFaultProxy> {
  const host = target.host ?? '127.0.0.1';
  const links = new Set<Link>();
  let current: ProxyMode = 'forward';
  let accepted = 0;
  let forwarded = 0;
  let server: Server | undefined;
  let port = 0;

  const cut = (link: Link): void => {
    link.client.destroy();
    link.upstream?.destroy();
    links.delete(link);
  };

  /** What an open connection does with the client's bytes, by the mode of the moment. */
  const onClientData = (link: Link, chunk: Buffer): void => {
    if (link.silent) return;
    switch (current) {
      case 'forward':
        if (link.upstream === undefined) join(link);
        link.upstream?.write(chunk);
        return;
      case 'destroy':
      case 'refuse':
        cut(link);
        return;
      case 'hang':
        link.silent = true;
        return;
      case '503':
        link.upstream?.destroy();
        link.client.end(UNAVAILABLE);
        links.delete(link);
        return;
    }
  };

  const join = (link: Link): void => {
    forwarded += 1;
    const upstream = connect({ host, port: target.port });
    link.upstream = upstream;
    // Answers flow back unless a hang silenced the connection (one that starts mid-answer stalls it).
    upstream.on('data', (chunk: Buffer) => {
      if (!link.silent) link.client.write(chunk);
    });
    upstream.once('close', () => {
      if (!link.silent) link.client.end();
      links.delete(link);
    });
    upstream.on('error', () => cut(link));
  };

  const accept = (client: Socket): void => {
    accepted += 1;
    if (current === 'destroy') {
      client.destroy();
      return;
    }
    const link: Link = { client, silent: current === 'hang' };
    links.add(link);
    client.on('data', (chunk: Buffer) => onClientData(link, chunk));
    client.once('close', () => {
      link.upstream?.destroy();
      links.delete(link);
    });
    client.on('error', () => cut(link));
  };

  const listen = async (): Promise<void> => {
    const next = createServer(accept);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  };

  const unlisten = async (): Promise<void> => {
    const open = server;
    server = undefined;
    if (open !== undefined) await new Promise<void>((resolve) => open.close(() => resolve()));
  };

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: () => current,
    async set(mode) {
      current = mode;
      if (mode === 'destroy' || mode === 'refuse') for (const link of [...links]) cut(link);
      if (mode === 'hang') for (const link of links) link.silent = true;
      if (mode === 'refuse') await unlisten();
      else if (server === undefined) await listen();
    },
    accepted: () => accepted,
    forwarded: () => forwarded,
    async close() {
      for (const link of [...links]) cut(link);
      await unlisten();
    },
  };
}
