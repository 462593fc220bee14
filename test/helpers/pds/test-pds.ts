// A real atproto PDS (@atproto/pds, pinned) on 127.0.0.1 for the Bluesky tests, with an
// in-memory PLC, one account and an app password. PDS.start() would listen on every interface,
// so the fixture starts the sequencer and listens itself on 127.0.0.1. It can be stopped and
// started again on the same port and data directory (the "PDS is down" tests).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtpAgent } from '@atproto/api';
import { envToCfg, envToSecrets, PDS, type ServerEnvironment } from '@atproto/pds';
import { type InMemoryPlc, startInMemoryPlc } from './in-memory-plc.ts';

export interface TestAccount {
  did: string;
  handle: string;
  /** The account password (only the fixture uses it). */
  password: string;
  /** An app password, what lorebook is configured with. */
  appPassword: string;
}

export interface TestPds {
  /** http://localhost:<port> — the PDS's own URL (its did:web issuer is localhost). */
  url: string;
  port: number;
  plc: InMemoryPlc;
  /** Milliseconds from PDS.create to listening, of the last start. */
  startMs: number;
  /** A new account with an app password; handles end in `.test`. */
  createAccount(name: string): Promise<TestAccount>;
  /** Stops the PDS (the port closes); data stays for start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  running(): boolean;
  /** Stops everything and removes the data directory. */
  close(): Promise<void>;
}

interface Running {
  pds: PDS;
  server: Server;
}

export async function startTestPds(): Promise<TestPds> {
  const plc = await startInMemoryPlc();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'lorebook-pds-'));
  const env: ServerEnvironment = {
    devMode: true,
    hostname: 'localhost',
    port: 0,
    dataDirectory,
    blobstoreDiskLocation: join(dataDirectory, 'blobs'),
    didPlcUrl: plc.url,
    inviteRequired: false,
    jwtSecret: randomBytes(16).toString('hex'),
    adminPassword: randomBytes(16).toString('hex'),
    plcRotationKeyK256PrivateKeyHex: randomBytes(32).toString('hex'),
    serviceHandleDomains: ['.test'],
    crawlers: [],
  };
  let port = 0;
  let running: Running | undefined;
  let startMs = 0;

  const start = async (): Promise<void> => {
    const began = performance.now();
    // The port is chosen once, at the first start, and reused so clients keep their URL.
    if (port === 0) port = await freePort();
    const cfg = envToCfg({ ...env, port });
    const pds = await PDS.create(cfg, envToSecrets(env));
    await pds.ctx.sequencer.start();
    const server = pds.app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    running = { pds, server };
    startMs = performance.now() - began;
  };

  const stop = async (): Promise<void> => {
    const current = running;
    running = undefined;
    if (current === undefined) return;
    await new Promise<void>((resolve) => {
      current.server.close(() => resolve());
      current.server.closeAllConnections();
    });
    await current.pds.ctx.destroy();
  };

  await start();
  const url = `http://localhost:${port}`;
  return {
    url,
    get port() {
      return port;
    },
    plc,
    get startMs() {
      return startMs;
    },
    async createAccount(name) {
      const handle = `${name}.test`;
      const password = randomBytes(12).toString('hex');
      const agent = new AtpAgent({ service: url });
      await agent.createAccount({ handle, email: `${name}@lorebook.test`, password });
      const { data } = await agent.com.atproto.server.createAppPassword({ name: 'lorebook' });
      return { did: agent.assertDid, handle, password, appPassword: data.password };
    },
    stop,
    start,
    running: () => running !== undefined,
    async close() {
      await stop();
      await plc.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
