// The token CLI as a person runs it: a child process, against the run's DynamoDB Local through
// LOREBOOK_DDB_ENDPOINT, through the endpoint file a running `npm start` leaves, and with no
// store running at all (it starts DynamoDB Local on the data dir for the command).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { lockFilePath, removeEndpointFile, writeEndpointFile } from '../../../src/cli/local-store.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const table = useTestTable('token-cli');

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment without any LOREBOOK_* of the outer shell, plus the given variables. */
function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOREBOOK_')) env[name] = value;
  return { ...env, ...extra };
}

async function token(args: string[], env: Record<string, string>, via: 'node' | 'npm' = 'node'): Promise<Output> {
  const [file, argv] =
    via === 'npm' ? ['npm', ['run', '--silent', 'token', '--', ...args]] : [process.execPath, ['src/cli/token.ts', ...args]];
  try {
    const { stdout, stderr } = await run(file, argv, { cwd: process.cwd(), env: cliEnv(env), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const TOKEN = /lbk_[A-Za-z0-9_-]{43}/g;

describe('npm run token against a running DynamoDB (LOREBOOK_DDB_ENDPOINT)', () => {
  const env = (): Record<string, string> => ({ LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: table.tableName });

  it('create prints the token once; list shows it without the plaintext; revoke removes it', async () => {
    const created = await token(['create', '--handle', 'alice', '--expires', '1d'], env(), 'npm');
    expect(created.code, created.stderr).toBe(0);
    const printed = [...created.stdout.matchAll(TOKEN)].map((m) => m[0]);
    // In the token line and the header example: one token, and only in this answer.
    expect(new Set(printed).size).toBe(1);
    const plaintext = printed[0] as string;
    expect(created.stdout).toContain('only time it is shown');
    const id = /token id \(for list and revoke\): ([0-9a-f]{64})/.exec(created.stdout)?.[1] as string;
    expect(id).toBeDefined();

    const listed = await token(['list', '--handle', 'alice'], env());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('1 live token');
    expect(listed.stdout).not.toMatch(TOKEN);
    expect(listed.stdout).not.toContain(plaintext.slice(4));

    const stored = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    expect(JSON.stringify(stored.Items)).not.toContain(plaintext.slice(4));

    const revoked = await token(['revoke', id], env());
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${id}`);
    const again = await token(['revoke', id], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing changed');
    expect((await token(['list', '--handle', 'alice'], env())).stdout).toContain('no live tokens');
  });

  it('--json answers are for scripts: the create answer carries the token, the list never does', async () => {
    const created = await token(['create', '--handle', 'bob', '--client', 'ci', '--json'], env());
    expect(created.code, created.stderr).toBe(0);
    const answer = JSON.parse(created.stdout) as Record<string, string>;
    expect(answer).toEqual({
      token: expect.stringMatching(/^lbk_/),
      token_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      account: expect.stringMatching(/^acct_/),
      handle: 'bob',
      expires_at: expect.any(String),
    });
    // The default lifetime is 30 days.
    expect(Date.parse(answer.expires_at as string) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    const listed = JSON.parse((await token(['list', '--handle', 'bob', '--json'], env())).stdout) as { tokens: unknown[] };
    expect(listed.tokens).toEqual([
      { token_id: answer.token_id, client: 'ci', created_at: expect.any(String), expires_at: answer.expires_at },
    ]);
  });

  it('refusals are clear and non-zero: unknown handle, bad handle, bad duration, unknown command', async () => {
    const unknown = await token(['list', '--handle', 'nobody'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('npm run token -- create --handle nobody');

    const badHandle = await token(['create', '--handle', 'not a handle'], env());
    expect(badHandle.code).toBe(2);
    expect(badHandle.stderr).toContain('handle:');

    const badDuration = await token(['create', '--handle', 'carol', '--expires', 'soon'], env());
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain('--expires "soon"');

    const noCommand = await token(['frobnicate'], env());
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toContain('unknown command');
    expect(noCommand.stderr).toContain('usage:');
  });

  it('--help says what each command does, the lifetimes, and how to use a token', async () => {
    const help = await token(['--help'], {}, 'npm');
    expect(help.code).toBe(0);
    for (const text of [
      'create --handle',
      'list --handle',
      'revoke <token_id>',
      '--expires',
      '30d',
      'Authorization: Bearer',
      'claude mcp add',
      'LOREBOOK_DDB_ENDPOINT',
    ]) {
      expect(help.stdout).toContain(text);
    }
  });
});

describe('npm run token without LOREBOOK_DDB_ENDPOINT', () => {
  it('uses the endpoint a running npm start announced, and starts nothing', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'lorebook-cli-running-')), 'dynamodb');
    writeEndpointFile(dataDir, testEndpoint());
    try {
      const created = await token(['create', '--handle', 'dan', '--json'], { LOREBOOK_DATA_DIR: dataDir, LOREBOOK_TABLE: table.tableName });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).not.toContain('dynamodb-local: started');
      expect(existsSync(dataDir)).toBe(false);
      const stored = await table.client.send(new ScanCommand({ TableName: table.tableName }));
      expect(stored.Items?.some((item) => item.PK === 'HANDLE#dan')).toBe(true);
    } finally {
      removeEndpointFile(dataDir);
    }
  });

  it('with no store running, runs DynamoDB Local on the data dir for the command; the data persists; nothing is left running', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'lorebook-cli-own-')), 'dynamodb');
    const env = { LOREBOOK_DATA_DIR: dataDir };
    const created = await token(['create', '--handle', 'erin', '--expires', '12h', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/dynamodb-local: started .* data dir /);
    expect(created.stderr).toContain('dynamodb-local: stopped');
    const { token_id: id } = JSON.parse(created.stdout) as { token_id: string };
    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
    expect(existsSync(lockFilePath(dataDir))).toBe(false);

    // A second command, a second JVM on the same files: the token is still there.
    const listed = await token(['list', '--handle', 'erin', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tokens: { token_id: string }[] }).tokens.map((t) => t.token_id)).toEqual([id]);
    expect(existsSync(lockFilePath(dataDir))).toBe(false);
  });
});
