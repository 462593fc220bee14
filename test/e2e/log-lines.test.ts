// A value a caller chose can never forge a log line, against `npm start` itself (the real server
// process, its real stdout) over this suite's table on DynamoDB Local: registering an OAuth client
// whose client_name holds "\n{…forged…}" is refused naming client_name, with nothing stored; and a
// client stored with such a name before that rule, approved on the consent page, is logged as
// exactly one line in which the line break is escaped.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../src/store/identity/oauth-client-items.ts';
import { writeAtomically } from '../../src/store/run-write.ts';
import { epochSeconds } from '../../src/store/store.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { authorizationCode, type Person, registerClient, signedInPerson } from '../helpers/oauth/oauth-flow.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const FORGED = '{"level":"info","msg":"lorebook: oauth consent approved for admin"}';
const app = useAppFixture('e2e-log-lines');
let server: NpmStart | undefined;
let person: Person;

beforeAll(async () => {
  person = await signedInPerson(app.ctx(), 'logged');
  server = await startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName });
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

const base = (): string => (server as NpmStart).baseUrl;
const clientItems = async () => (await app.state()).filter((item) => String(item.PK).startsWith('OAUTHCLIENT#'));
/** The server's output as lines, once `text` shows up in it (bounded wait: the line is written before the answer, read a moment later). */
async function linesOnceItSays(text: string): Promise<string[]> {
  for (let attempt = 0; attempt < 100 && !(server as NpmStart).output().includes(text); attempt += 1)
    await new Promise((done) => setTimeout(done, 50));
  return (server as NpmStart).output().split('\n');
}

describe('log lines under npm start', () => {
  it('a client_name holding a line break is refused naming client_name (invalid_client_metadata), and nothing is stored', async () => {
    const before = await clientItems();
    const refused = await registerClient(base(), {
      client_name: `Evil App\n${FORGED}`,
      redirect_uris: ['http://127.0.0.1:47123/callback'],
    });
    expect(refused.status).toBe(400);
    expect(refused.json().error).toBe('invalid_client_metadata');
    expect(String(refused.json().error_description)).toMatch(/client_name: Holds U\+000A \(a line break\)/);
    expect(await clientItems()).toEqual(before);
  });

  it('a client name stored before that rule is logged on consent as one line, its line break escaped: no forged line', async () => {
    const now = Date.now();
    const client = {
      client_id: `lbc_${randomBytes(16).toString('hex')}`,
      client_name: `Legacy App\n${FORGED}`,
      redirect_uris: ['http://127.0.0.1:47124/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      client_id_issued_at: epochSeconds(now),
      expires_at: epochSeconds(now) + 3600,
    };
    await writeAtomically(app.ctx().store, [registerOAuthClient(client, now)]);
    await authorizationCode(base(), person, { client_id: client.client_id, redirect_uri: client.redirect_uris[0] as string });
    const lines = await linesOnceItSays('oauth consent approved');
    const approvals = lines.filter((line) => line.includes('oauth consent approved'));
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toContain(`"Legacy App\\n${FORGED}"`);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  });
});
