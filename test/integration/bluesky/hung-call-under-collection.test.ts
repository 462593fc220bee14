// A call to a PDS that never answers ends at its deadline even while the heap is being collected.
// The fetch the Bluesky client uses (a deadline around a fresh connection) once built a Request of
// its own between the deadline and fetch; a Request follows its signal only weakly, so a
// collection during the call cut the abort off and the call hung past its timeout (seen in CI as
// a 300 ms sign-in still waiting at 60 s).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from '../../../integrations/bluesky/bounded-fetch.ts';
import { freshConnectionFetch } from '../../../integrations/bluesky/fresh-connection.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TIMEOUT_MS = 200;
/** Far past the deadline: a call still unsettled here has lost its abort. */
const GAVE_UP_MS = 5_000;

let server: Server;
let url: string;
const answered: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // Never answers a call to /hang; answers any other at once, keeping its headers.
  server = createServer((request, response) => {
    if (request.url === '/hang') return;
    answered.push(request.headers);
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** How each call ended: the error's name, or `still-waiting` if it had not settled by GAVE_UP_MS. */
async function endings(calls: Array<() => Promise<Response>>): Promise<string[]> {
  const collecting = setInterval(gc, 5);
  try {
    return await Promise.all(
      calls.map((call) => {
        let giveUp: NodeJS.Timeout | undefined;
        const gaveUp = new Promise<string>((resolve) => {
          giveUp = setTimeout(() => resolve('still-waiting'), GAVE_UP_MS);
        });
        const ended = call().then(
          () => 'answered',
          (error: Error) => error.name,
        );
        return Promise.race([ended, gaveUp]).finally(() => clearTimeout(giveUp));
      }),
    );
  } finally {
    clearInterval(collecting);
  }
}

describe('a PDS call that hangs', () => {
  it('ends at its deadline while collections run, with or without a signal of the caller’s', async () => {
    const fetchOnce = boundedFetch(TIMEOUT_MS, freshConnectionFetch());
    const post = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };
    const calls = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0 ? () => fetchOnce(url, post) : () => fetchOnce(url, { ...post, signal: new AbortController().signal }),
    );
    expect(await endings(calls)).toEqual(Array.from({ length: 10 }, () => 'TimeoutError'));
  });

  it('ends at its deadline when the caller hands a Request', async () => {
    const fetchOnce = boundedFetch(TIMEOUT_MS, freshConnectionFetch());
    const calls = Array.from({ length: 4 }, () => () => fetchOnce(new Request(url, { headers: { accept: 'application/json' } })));
    expect(await endings(calls)).toEqual(Array.from({ length: 4 }, () => 'TimeoutError'));
  });
});

describe('a fresh connection', () => {
  it('asks to close the connection and keeps the caller’s headers, given a URL or a Request', async () => {
    const fetchOnce = freshConnectionFetch();
    const answer = new URL('/answer', url).href;
    await fetchOnce(answer, { headers: { accept: 'application/json' } });
    await fetchOnce(new Request(answer, { headers: { accept: 'application/json' } }));
    expect(answered.map(({ connection, accept }) => ({ connection, accept }))).toEqual([
      { connection: 'close', accept: 'application/json' },
      { connection: 'close', accept: 'application/json' },
    ]);
  });
});
