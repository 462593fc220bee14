// One HTTP call of the fairness bench (fairness.ts), from a chosen loopback address: the server
// tells callers apart by address. Shared by the victim and the attacker process.
import { request } from 'node:http';

export interface Answer {
  status: number;
  body: string;
}

/** A call not answered within this is cut (and counted as refused: status 0). */
export const CALL_TIMEOUT_MS = 30_000;

export function send(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: Buffer | string; from: string },
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: options.method, headers: options.headers, localAddress: options.from, timeout: CALL_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    // A server that stops reading an oversized body resets the connection: an answer like any other.
    req.on('error', () => resolve({ status: 0, body: '' }));
    // A server that answers before reading the body (a refused token, design.md#admission) closes while the
    // rest is still being written: EPIPE on a socket the request may already have let go of.
    req.on('socket', (socket) => {
      const cut = (): void => resolve({ status: 0, body: '' });
      socket.on('error', cut);
      // A kept-alive socket serves the next request too: each request takes its listener back.
      req.once('close', () => socket.off('error', cut));
    });
    req.on('timeout', () => req.destroy());
    req.end(options.body);
  });
}
