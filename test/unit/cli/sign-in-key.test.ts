// `npm run sign-in:key` in a fresh Node process, as an operator runs it: what it prints is a key
// the sign-in settings accept and the OAuth client imports, and only that goes to stdout.
import { spawnSync } from 'node:child_process';
import { JoseKey } from '@atproto/oauth-client-node';
import { describe, expect, it } from 'vitest';
import { lambdaSignIn } from '../../../handlers/sign-in-secret.ts';
import { readSignInConfig } from '../../../src/auth/sign-in-config.ts';

const SCRIPT = new URL('../../../src/cli/sign-in-key.ts', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 30_000 });
const BASE = 'https://lorebook.example.com';

describe('npm run sign-in:key', () => {
  it('prints one private ES256 JWK with the given kid, which production sign-in accepts and whose public half has no "d"', async () => {
    const result = run('--kid', 'lorebook-test');
    expect(result.status).toBe(0);
    const printed = result.stdout.trim();
    expect(printed.split('\n')).toHaveLength(1);
    const jwk = JSON.parse(printed) as Record<string, unknown>;
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', kid: 'lorebook-test', d: expect.any(String) });
    expect(
      readSignInConfig({ LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: printed }, BASE)?.privateKeyJwk,
    ).toBe(printed);
    expect(
      lambdaSignIn({ LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_SIGN_IN_KEY_SECRET_ID: 'arn:x' }, BASE, printed).signIn?.mode,
    ).toBe('production');
    const key = await JoseKey.fromImportable(printed);
    expect(key.publicJwk).toMatchObject({ kid: 'lorebook-test', x: jwk.x, y: jwk.y });
    expect((key.publicJwk as Record<string, unknown>).d).toBeUndefined();
  });

  it('two runs make two different keys', () => {
    const [first, second] = [run(), run()].map((result) => JSON.parse(result.stdout) as { d: string; kid: string });
    expect(first?.d).not.toBe(second?.d);
    expect(first?.kid).toMatch(/^lorebook-\d{8}$/);
  });

  it('a kid that is not a plain id is a usage error (exit 2) and prints no key', () => {
    const result = run('--kid', 'has spaces');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--kid must be');
  });
});
