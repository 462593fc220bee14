// Per-suite fixture for Sign in with Bluesky: the real test PDS (with its in-memory PLC) as the
// identity provider, and the real lorebook server with /auth/* on, whose atproto OAuth client (a
// loopback development client) resolves handles at the PDS and DIDs at the in-memory PLC.
import { afterAll, beforeAll } from 'vitest';
import { type LorebookServer, type ServerOptions, useLorebookServer } from '../lorebook-server.ts';
import { startTestPds, type TestPds } from '../pds/test-pds.ts';

export interface SignInServer {
  server: LorebookServer;
  pds(): TestPds;
  /** The server's log lines (one per sign-in, refusals worth an operator's eye). */
  logs: string[];
}

export function useSignInServer(suite: string, options: Omit<ServerOptions, 'signIn'> = {}): SignInServer {
  let pds: TestPds | undefined;
  const logs: string[] = [];
  // Registered before the server's own beforeAll, so the PDS is up when the server reads its URL.
  beforeAll(async () => {
    pds = await startTestPds();
  });
  afterAll(async () => {
    await pds?.close();
  });
  const need = (): TestPds => {
    if (pds === undefined) throw new Error('useSignInServer: the PDS exists only inside tests and hooks');
    return pds;
  };
  const server = useLorebookServer(suite, {
    ...options,
    signIn: () => ({
      config: { mode: 'loopback', handleResolver: need().url, plcDirectoryUrl: need().plc.url, allowPrivateFetch: true },
      log: (line) => void logs.push(line),
    }),
  });
  return { server, pds: need, logs };
}
