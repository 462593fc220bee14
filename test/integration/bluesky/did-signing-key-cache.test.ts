// The DID-document look-up of the feed generator (integrations/bluesky/did-signing-key.ts,
// design.md#admission) against a loopback server standing in for the PLC directory: the asker pays before each
// fetch and only then, a failure is remembered for failureCacheMs, a forced refresh is honoured
// only once the key is older than the floor, and one DID asked many times at once is fetched once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeyResolver } from '../../../integrations/bluesky/did-signing-key.ts';

const KNOWN = 'did:plc:knownknownknownknownknow';
const MISSING = 'did:plc:missingmissingmissingmiss';
const KEY = { id: '#atproto', type: 'Multikey', publicKeyMultibase: 'zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme' };

let plc: Server;
let origin = '';
const asked: string[] = [];
let now = 1_000_000;

beforeAll(async () => {
  plc = createServer((request, response) => {
    const did = decodeURIComponent((request.url ?? '').slice(1));
    asked.push(did);
    if (did !== KNOWN) return void response.writeHead(404).end();
    // Answered a moment later, so requests asked together are still on their way together.
    setTimeout(
      () => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: KNOWN, verificationMethod: [KEY] })),
      20,
    );
  });
  await new Promise<void>((resolve) => plc.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(plc.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => plc.close(() => resolve())));

const resolver = () =>
  createSigningKeyResolver({
    plcDirectoryUrl: origin,
    allowPrivateFetch: true,
    now: () => now,
    failureCacheMs: 60_000,
    refreshFloorMs: 60_000,
  });
const fetchesOf = (did: string) => asked.filter((seen) => seen === did).length;

describe('the DID signing key look-up', () => {
  it('spends the budget once per fetch and never on a remembered key; a forced refresh within the floor fetches nothing', async () => {
    const lookUp = resolver();
    let spent = 0;
    const spend = async () => {
      spent += 1;
    };
    const before = fetchesOf(KNOWN);
    const keys = await Promise.all(Array.from({ length: 16 }, () => lookUp(KNOWN, false, spend)));
    expect(keys[15]).toEqual({ type: KEY.type, publicKeyMultibase: KEY.publicKeyMultibase });
    expect(fetchesOf(KNOWN) - before).toBe(1);
    expect(spent).toBe(1);
    await lookUp(KNOWN, true, spend);
    expect(fetchesOf(KNOWN) - before).toBe(1);
    now += 60_000;
    await lookUp(KNOWN, true, spend);
    expect(fetchesOf(KNOWN) - before).toBe(2);
    expect(spent).toBe(2);
  });

  it('remembers a failure for failureCacheMs: asked again meanwhile, nothing is fetched or spent', async () => {
    const lookUp = resolver();
    let spent = 0;
    const spend = async () => {
      spent += 1;
    };
    await expect(lookUp(MISSING, false, spend)).rejects.toThrow(/no DID document/);
    await expect(lookUp(MISSING, false, spend)).rejects.toThrow(/no DID document/);
    expect([fetchesOf(MISSING), spent]).toEqual([1, 1]);
    now += 60_000;
    await expect(lookUp(MISSING, false, spend)).rejects.toThrow(/no DID document/);
    expect([fetchesOf(MISSING), spent]).toEqual([2, 2]);
  });

  it('fetches nothing when the asker cannot pay, and remembers nothing of it', async () => {
    const lookUp = resolver();
    const before = asked.length;
    const refused = new Error('budget spent');
    await expect(lookUp('did:plc:unpaidunpaidunpaidunpaidu', false, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(asked.length).toBe(before);
  });
});
