// A small HTTP proxy in front of the test PDS that injects the failures a real network and a
// busy PDS produce: a 5xx, a 429 with retry-after, a hang (no answer ever), a response dropped
// after the PDS already did the work, and a held request the test forwards or fails when it
// chooses (to order two workers exactly). Faults are queued per XRPC method and used once each;
// every request is counted. It can go down (the port refuses connections) and come back.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; error?: string }
  | { kind: 'rate-limit'; retryAfterSeconds: number }
  | { kind: 'hang' }
  | { kind: 'drop-after-forward' };

export interface HeldRequest {
  /** Resolves when the request has arrived. */
  arrived: Promise<void>;
  /** Sends it on to the PDS and the answer back. */
  forward(): void;
  /** Answers it with this status without forwarding. */
  fail(status: number): void;
}

export interface FaultProxy {
  url: string;
  /** The next `times` calls of the XRPC method (e.g. com.atproto.repo.createRecord) get the fault. */
  inject(method: string, fault: Fault, times?: number): void;
  /** The next call of the method waits for the test to forward or fail it. */
  hold(method: string): HeldRequest;
  /** Calls of the method that reached the proxy (faulted or not). */
  seen(method: string): number;
  /** Calls of the method that were sent on to the PDS. */
  forwarded(method: string): number;
  /** Refuse connections (like a stopped PDS) until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

type Rule =
  | { kind: 'fault'; fault: Fault }
  | { kind: 'hold'; held: HeldRequest & { handle(req: IncomingMessage, res: ServerResponse): void } };

export async function startFaultProxy(target: { port: number }): Promise<FaultProxy> {
  const rules = new Map<string, Rule[]>();
  const seen = new Map<string, number>();
  const forwarded = new Map<string, number>();
  const sockets = new Set<Socket>();
  const bump = (counts: Map<string, number>, method: string): void => void counts.set(method, (counts.get(method) ?? 0) + 1);

  const forward = (method: string, req: IncomingMessage, res: ServerResponse, dropResponse = false): void => {
    bump(forwarded, method);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (dropResponse) {
          // The PDS did the work; the caller never hears about it.
          answer.resume();
          answer.once('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => req.socket.destroy());
    req.pipe(upstream);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const method = new URL(req.url ?? '/', 'http://proxy.invalid').pathname.replace(/^\/xrpc\//, '');
    bump(seen, method);
    const rule = rules.get(method)?.shift();
    if (rule === undefined) {
      forward(method, req, res);
      return;
    }
    if (rule.kind === 'hold') {
      rule.held.handle(req, res);
      return;
    }
    const { fault } = rule;
    switch (fault.kind) {
      case 'status':
        req.resume();
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: fault.error ?? 'InternalServerError', message: `injected ${fault.status}` }));
        return;
      case 'rate-limit':
        req.resume();
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(fault.retryAfterSeconds),
          'ratelimit-limit': '10',
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + fault.retryAfterSeconds),
        });
        res.end(JSON.stringify({ error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }));
        return;
      case 'hang':
        req.resume();
        return;
      case 'drop-after-forward':
        forward(method, req, res, true);
        return;
    }
  };

  let server: Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    const next = createServer(handler);
    next.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  };
  const stop = async (): Promise<void> => {
    const current = server;
    server = undefined;
    if (current === undefined) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await listen();

  const queue = (method: string, rule: Rule): void => void rules.set(method, [...(rules.get(method) ?? []), rule]);
  return {
    url: `http://127.0.0.1:${port}`,
    inject(method, fault, times = 1) {
      for (let i = 0; i < times; i += 1) queue(method, { kind: 'fault', fault });
    },
    hold(method) {
      let arrive: () => void = () => {};
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      let waiting: { req: IncomingMessage; res: ServerResponse } | undefined;
      let decided: { status?: number } | undefined;
      const settle = (): void => {
        if (waiting === undefined || decided === undefined) return;
        const { req, res } = waiting;
        if (decided.status === undefined) {
          forward(method, req, res);
          return;
        }
        req.resume();
        res.writeHead(decided.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'InternalServerError', message: `held and failed with ${decided.status}` }));
      };
      const held = {
        arrived,
        forward() {
          decided = {};
          settle();
        },
        fail(status: number) {
          decided = { status };
          settle();
        },
        handle(req: IncomingMessage, res: ServerResponse) {
          waiting = { req, res };
          arrive();
          settle();
        },
      };
      queue(method, { kind: 'hold', held });
      return held;
    },
    seen: (method) => seen.get(method) ?? 0,
    forwarded: (method) => forwarded.get(method) ?? 0,
    down: stop,
    up: async () => {
      if (server === undefined) await listen();
    },
    close: stop,
  };
}
