// HTTP requests sent from a chosen loopback address (127.0.0.2, 127.0.0.3, …: all of 127/8 is this
// machine on Linux), so a server that keys budgets by the peer's address sees distinct callers.
// node:http rather than fetch: it takes a local address and lets a test hold a body back.
import { type ClientRequest, type IncomingMessage, request } from 'node:http';

export interface AddressAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  json(): Record<string, unknown>;
}

async function collect(response: IncomingMessage): Promise<AddressAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: response.statusCode ?? 0, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** One request from `localAddress`, its body sent whole. */
export function sendFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<AddressAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, localAddress }, (response) => {
      collect(response).then(resolve, reject);
    });
    outgoing.once('error', reject);
    outgoing.end(init.body);
  });
}

/**
 * A request whose body is held back: the headers (Content-Length included) and `sent` go out, the
 * rest never does. The answer can only come from a server that decided without the body; the
 * request is destroyed once it has come.
 */
export function answeredWithoutBody(
  url: string,
  init: { method: string; headers: Record<string, string>; declaredBytes: number; sent: string },
  localAddress = '127.0.0.1',
): Promise<AddressAnswer> {
  return new Promise((resolve, reject) => {
    let outgoing: ClientRequest | undefined;
    outgoing = request(
      url,
      { method: init.method, headers: { ...init.headers, 'Content-Length': String(init.declaredBytes) }, localAddress },
      (response) => {
        collect(response).then((answer) => {
          outgoing?.destroy();
          resolve(answer);
        }, reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.write(init.sent);
  });
}
