// `node test/bench/safe-fetch.ts`: what the SSRF-safe fetch adds to a request, as a ratio against
// plain fetch measured in the same run, interleaved, against one loopback server. Offline only
// loopback exists, so the safe fetch runs with its private-address opt-in: the guarded undici
// Agent, the per-hop URL check, the time and size bounds are all in the path; only the resolved-
// address filter is not (one callback on a DNS answer). LOREBOOK_BENCH_FETCHES=n (default 400).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeFetch } from '../../integrations/safe-fetch/index.ts';
import { ms, percentile, ratio } from './stats.ts';

const FETCHES = Number(process.env.LOREBOOK_BENCH_FETCHES ?? 400);
const body = JSON.stringify({ id: 'did:web:example', service: [{ id: '#atproto_pds', serviceEndpoint: 'https://pds.example' }] });
const server = createServer((_, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end(body));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/did.json`;

const safe = createSafeFetch({ allowPrivateAddresses: true });
const timings = { plain: [] as number[], safe: [] as number[] };
const once = async (fetcher: typeof fetch, into: number[]): Promise<void> => {
  const began = performance.now();
  await (await fetcher(url)).json();
  into.push(performance.now() - began);
};
// Warm both (connections, JIT), then alternate so load on the machine hits both alike.
for (let index = 0; index < 20; index += 1) await Promise.all([once(fetch, []), once(safe, [])]);
for (let index = 0; index < FETCHES; index += 1) {
  await once(fetch, timings.plain);
  await once(safe, timings.safe);
}
server.close();
const p50 = { plain: percentile(timings.plain, 50), safe: percentile(timings.safe, 50) };
process.stdout.write(
  `${FETCHES} GETs of a DID document each: plain fetch p50 ${ms(p50.plain)} ms, safe fetch p50 ${ms(p50.safe)} ms — ${ratio(p50.safe / p50.plain)} ` +
    `(p90 ${ratio(percentile(timings.safe, 90) / percentile(timings.plain, 90))})\n`,
);
