// The SSRF-safe fetch against real loopback servers: nothing private is reached unless the
// operator opted in, and every answer is bounded in size and time either way.

import { createServer, type Server } from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../../integrations/safe-fetch/index.ts';

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/big') return void response.end('x'.repeat(4096));
    if (request.url === '/hang') return void response.writeHead(200, { 'content-type': 'text/plain' }).write('partial');
    if (request.url === '/silent') return;
    response.end('hello');
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The reason a refused fetch gives: the TypeError's cause, as undici reports it. */
async function refusal(fetching: Promise<Response>): Promise<string> {
  const error = (await fetching.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as (Error & { cause?: Error }) | undefined;
  if (error === undefined) throw new Error('the fetch was not refused');
  return `${error.message} ${error.cause?.message ?? ''}`;
}

describe('the safe fetch, by default', () => {
  const safe = createSafeFetch({ allowPrivateAddresses: false });

  it.each([
    ['loopback IPv4', 'https://127.0.0.1/'],
    ['loopback in hex', 'https://0x7f000001/'],
    ['private 10/8', 'https://10.0.0.1/'],
    ['private 192.168/16', 'https://192.168.1.1/'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/'],
    ['multicast', 'https://224.0.0.1/'],
    ['unspecified IPv4', 'https://0.0.0.0/'],
    ['loopback IPv6', 'https://[::1]/'],
    ['unique-local IPv6', 'https://[fd00::1]/'],
    ['link-local IPv6', 'https://[fe80::1]/'],
    ['unspecified IPv6', 'https://[::]/'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/'],
  ])('refuses a literal %s address (%s) before connecting', async (_, url) => {
    expect(await refusal(safe(url))).toMatch(/non-unicast address/);
  });

  it('refuses localhost names, http and other ports — the loopback server is never connected to', async () => {
    const before = connections;
    expect(await refusal(safe('https://localhost/'))).toMatch(/not a public domain/);
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `https://127.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      expect(await refusal(safe(url))).toMatch(/Forbidden protocol|non-unicast|not a public domain|port/i);
    }
    expect(connections).toBe(before);
  });

  describe('a host name is judged by the address it resolves to, at connect time (DNS rebinding)', () => {
    // INJECTED FAULT: an attacker's DNS answer. Offline there is no public name that resolves to
    // loopback, so node:dns's lookup (which the guarded Agent calls when connecting) answers it.
    const dns = createRequire(import.meta.url)('node:dns') as { lookup: (...args: unknown[]) => void };
    const realLookup = dns.lookup;
    const asked: string[] = [];
    const answering = (addresses: { address: string; family: number }[]) => {
      dns.lookup = (hostname: unknown, options: unknown, callback: unknown) => {
        asked.push(String(hostname));
        const done = (typeof options === 'function' ? options : callback) as (
          error: Error | null,
          address: unknown,
          family?: number,
        ) => void;
        const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
        if (all) done(null, addresses);
        else done(null, addresses[0]?.address, addresses[0]?.family);
      };
      syncBuiltinESMExports();
    };
    afterEach(() => {
      dns.lookup = realLookup;
      syncBuiltinESMExports();
    });

    it('a public-looking name answering 127.0.0.1 is refused', async () => {
      answering([{ address: '127.0.0.1', family: 4 }]);
      expect(await refusal(safe('https://rebind.attacker-dns.net/'))).toMatch(/non-unicast address/);
      expect(asked).toContain('rebind.attacker-dns.net');
    });

    it('a name answering a public and a private address (or an IPv4-mapped loopback) is refused', async () => {
      answering([
        { address: '93.184.215.14', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ]);
      expect(await refusal(safe('https://mixed.attacker-dns.net/'))).toMatch(/non-unicast address/);
      answering([{ address: '::ffff:127.0.0.1', family: 6 }]);
      expect(await refusal(safe('https://mapped.attacker-dns.net/'))).toMatch(/non-unicast address/);
    });
  });
});

describe('the safe fetch with the private-address opt-in (development against a local PDS)', () => {
  it('reaches a loopback server', async () => {
    const local = createSafeFetch({ allowPrivateAddresses: true });
    const answer = await local(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('hello');
  });

  it('still refuses a body over the size bound', async () => {
    const small = createSafeFetch({ allowPrivateAddresses: true, maxResponseBytes: 1024 });
    const reading = small(`http://127.0.0.1:${port}/big`).then((answer) => answer.text());
    await expect(reading).rejects.toThrow(/too large|exceed|size/i);
  });

  it('still ends a call whose server never answers, or stops mid-body, within the time bound', async () => {
    const quick = createSafeFetch({ allowPrivateAddresses: true, timeoutMs: 300 });
    await expect(quick(`http://127.0.0.1:${port}/silent`)).rejects.toThrow();
    const body = quick(`http://127.0.0.1:${port}/hang`).then((answer) => answer.text());
    await expect(body).rejects.toThrow();
  });
});
