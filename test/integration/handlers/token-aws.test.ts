// `npm run token:aws` (src/cli/token-aws.ts), the way to issue the first token on a deployed
// table, run as a child process against DynamoDB Local (LOREBOOK_DDB_ENDPOINT): the token it
// prints authenticates, list shows it, revoke ends it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import { TOKEN_TRUST_MS } from '../../../src/app/oauth-server/verified-tokens.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('lambda-token-aws');

const tokenAws = (...args: string[]) =>
  run(process.execPath, ['src/cli/token-aws.ts', ...args], {
    env: { ...process.env, LOREBOOK_TABLE: app.ctx().store.tableName, LOREBOOK_DDB_ENDPOINT: testEndpoint() },
    timeout: 60_000,
  });

describe('npm run token:aws', () => {
  it('issues a token that authenticates, lists it by id and revokes it', async () => {
    const created = await tokenAws('create', '--handle', 'first-admin', '--expires', '7d');
    const token = /^\s+(\S{20,})$/m.exec(created.stdout)?.[1] as string;
    expect(token).toBeDefined();
    expect(created.stderr).toContain(`table "${app.ctx().store.tableName}"`);
    expect(await authenticate(app.ctx(), `Bearer ${token}`)).toMatchObject({ handle: 'first-admin' });

    const tokenId = /Token id: (\S+)/.exec(created.stdout)?.[1] as string;
    expect((await tokenAws('list', '--handle', 'first-admin')).stdout).toContain(tokenId);
    expect((await tokenAws('revoke', tokenId)).stdout).toContain(`Revoked ${tokenId}`);
    // Revoked by another process: an instance that remembers the token refuses it within TOKEN_TRUST_MS.
    app.advance(TOKEN_TRUST_MS);
    await expect(authenticate(app.ctx(), `Bearer ${token}`)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('without LOREBOOK_TABLE it refuses with a usage error and says what to set', async () => {
    const failed = await run(process.execPath, ['src/cli/token-aws.ts', 'create', '--handle', 'x'], {
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('set LOREBOOK_TABLE');
  });
});
