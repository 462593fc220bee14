import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import { createToken, listTokens, revokeToken } from '../../../src/app/oauth-server/tokens.ts';
import { tokenId } from '../../../src/auth/token-secret.ts';
import { caller as fixtureCaller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';

const app = useAppFixture('auth-tokens');

const DAY = 24 * 60 * 60;
const bearer = (token: string): string => `Bearer ${token}`;

describe('createToken -> authenticate', () => {
  it('a new token authenticates as its account, with the handle resolved from the account', async () => {
    const before = Math.floor(app.ctx().store.now() / 1000);
    const created = await createToken(app.ctx(), { handle: 'alice', expiresInSeconds: DAY });
    const after = Math.floor(app.ctx().store.now() / 1000);
    expect(created.token).toMatch(/^lbk_[A-Za-z0-9_-]{43}$/);
    expect(created.token_id).toBe(tokenId(created.token));
    expect(created.account).toMatch(/^acct_[0-9a-f]{20}$/);
    expect(created.handle).toBe('alice');
    const expiresAt = Date.parse(created.expires_at) / 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(before + DAY);
    expect(expiresAt).toBeLessThanOrEqual(after + DAY);

    expect(await authenticate(app.ctx(), bearer(created.token))).toEqual({ account: created.account, handle: 'alice' });
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect(await authenticate(app.ctx(), `bearer ${created.token}`)).toEqual({ account: created.account, handle: 'alice' });
  });

  it('authenticate reads two items and writes nothing', async () => {
    const created = await createToken(app.ctx(), { handle: 'reader', expiresInSeconds: DAY });
    const before = await app.allItems();
    app.counter().reset();
    await authenticate(app.ctx(), bearer(created.token));
    expect(app.counter().writes()).toBe(0);
    expect(app.counter().snapshot()).toEqual({ GetItem: 2 });
    expect(await app.allItems()).toEqual(before);
  });

  it('a second token for the same handle belongs to the same account; the client is carried to the caller', async () => {
    const first = await createToken(app.ctx(), { handle: 'bob', expiresInSeconds: DAY });
    const second = await createToken(app.ctx(), { handle: '@Bob', expiresInSeconds: DAY, client: 'claude-code' });
    expect(second.account).toBe(first.account);
    expect(second.handle).toBe('bob');
    expect(second.token).not.toBe(first.token);
    expect(await authenticate(app.ctx(), bearer(second.token))).toEqual({ account: first.account, handle: 'bob', client: 'claude-code' });
  });

  it('16 parallel creates for a new handle make one account, one handle claim and 16 tokens', async () => {
    const created = await Promise.all(Array.from({ length: 16 }, () => createToken(app.ctx(), { handle: 'carol', expiresInSeconds: DAY })));
    const accounts = new Set(created.map((c) => c.account));
    expect(accounts.size).toBe(1);
    const [account] = [...accounts];
    const items = await app.allItems();
    expect(items.filter((i) => i.PK === 'HANDLE#carol')).toEqual([
      { PK: 'HANDLE#carol', SK: 'META', handle: 'carol', account, created_at: expect.any(String) },
    ]);
    expect(items.filter((i) => i.PK === `ACCOUNT#${account}` && i.SK === 'META')).toHaveLength(1);
    expect((await listTokens(app.ctx(), { handle: 'carol' })).tokens).toHaveLength(16);
    for (const c of created) expect((await authenticate(app.ctx(), bearer(c.token)))?.account).toBe(account);
  });

  it('only the sha256 of a token is stored: no item holds the plaintext or its secret part', async () => {
    const created = await createToken(app.ctx(), { handle: 'dora', expiresInSeconds: DAY });
    const dump = JSON.stringify(await app.allItems());
    expect(dump).not.toContain(created.token);
    expect(dump).not.toContain(created.token.slice('lbk_'.length));
    const stored = (await app.allItems()).filter((i) => String(i.PK).endsWith(created.token_id) || String(i.SK).endsWith(created.token_id));
    expect(stored).toEqual([
      {
        PK: `ACCOUNT#${created.account}`,
        SK: `TOKEN#${created.token_id}`,
        token_hash: created.token_id,
        account: created.account,
        created_at: expect.any(String),
        expires_at: Date.parse(created.expires_at) / 1000,
      },
      {
        PK: `TOKEN#${created.token_id}`,
        SK: 'META',
        token_hash: created.token_id,
        account: created.account,
        created_at: expect.any(String),
        expires_at: Date.parse(created.expires_at) / 1000,
      },
    ]);
  });

  it('the handle shown follows the account, not the token', async () => {
    const created = await createToken(app.ctx(), { handle: 'erin', expiresInSeconds: DAY });
    await ensureAccount(app.ctx(), { account: created.account, handle: 'erin.example.com' });
    expect(await authenticate(app.ctx(), bearer(created.token))).toEqual({ account: created.account, handle: 'erin.example.com' });
  });
});

describe('authenticate refuses what is not a live token, and writes nothing', () => {
  it('no Authorization header is an anonymous call, not a refusal', async () => {
    expect(await authenticate(app.ctx(), undefined)).toBeUndefined();
  });

  it.each([
    ['an empty header', ''],
    ['Bearer with no token', 'Bearer '],
    ['another scheme', 'Basic YWxpY2U6c2VjcmV0'],
    ['a token without the lbk_ prefix', `Bearer ${'a'.repeat(43)}`],
    ['a truncated token', `Bearer lbk_${'a'.repeat(42)}`],
    ['a token with a character outside base64url', `Bearer lbk_${'a'.repeat(42)}+`],
    ['two tokens', `Bearer lbk_${'a'.repeat(43)} lbk_${'b'.repeat(43)}`],
  ])('%s is unauthenticated without a round trip', async (_name, header) => {
    app.counter().reset();
    const error = await refusal(authenticate(app.ctx(), header));
    expect(error.code).toBe('unauthenticated');
    expect(error.httpStatus).toBe(401);
    expect(error.details).toEqual({ reason: 'malformed' });
    expect(app.counter().total()).toBe(0);
  });

  it('an unknown well-formed token is unauthenticated and writes nothing', async () => {
    const before = await app.allItems();
    app.counter().reset();
    const error = await refusal(authenticate(app.ctx(), bearer(`lbk_${'Z'.repeat(43)}`)));
    expect(error.code).toBe('unauthenticated');
    expect(error.details).toEqual({ reason: 'invalid' });
    expect(error.retryable).toBe(false);
    expect(app.counter().writes()).toBe(0);
    expect(await app.allItems()).toEqual(before);
  });

  it('an expired token is unauthenticated from its expiry second on, though DynamoDB still holds it', async () => {
    const created = await createToken(app.ctx(), { handle: 'frank', expiresInSeconds: 60 });
    expect(await authenticate(app.ctx(), bearer(created.token))).toBeDefined();
    const expiresAtMs = Date.parse(created.expires_at);
    app.advance(expiresAtMs - app.ctx().store.now());
    const before = await app.allItems();
    expect(before.some((i) => i.PK === `TOKEN#${created.token_id}`)).toBe(true);
    const error = await refusal(authenticate(app.ctx(), bearer(created.token)));
    expect(error.code).toBe('unauthenticated');
    expect(await app.allItems()).toEqual(before);
    expect((await listTokens(app.ctx(), { handle: 'frank' })).tokens).toEqual([]);
  });

  it('a revoked token is unauthenticated at once; both its items are gone; a second revoke changes nothing', async () => {
    const kept = await createToken(app.ctx(), { handle: 'gina', expiresInSeconds: DAY });
    const revoked = await createToken(app.ctx(), { handle: 'gina', expiresInSeconds: DAY });
    expect(await revokeToken(app.ctx(), { token_id: revoked.token_id })).toEqual({ token_id: revoked.token_id, revoked: true });
    const error = await refusal(authenticate(app.ctx(), bearer(revoked.token)));
    expect(error.code).toBe('unauthenticated');
    const items = await app.allItems();
    expect(items.filter((i) => String(i.PK).includes(revoked.token_id) || String(i.SK).includes(revoked.token_id))).toEqual([]);
    expect((await authenticate(app.ctx(), bearer(kept.token)))?.account).toBe(kept.account);

    app.counter().reset();
    expect(await revokeToken(app.ctx(), { token_id: revoked.token_id })).toEqual({ token_id: revoked.token_id, revoked: false });
    expect(app.counter().writes()).toBe(0);
    expect(await app.allItems()).toEqual(items);
  });

  it('a token can be revoked by its plaintext too', async () => {
    const created = await createToken(app.ctx(), { handle: 'hana', expiresInSeconds: DAY });
    expect(await revokeToken(app.ctx(), { token_id: created.token })).toEqual({ token_id: created.token_id, revoked: true });
    expect((await refusal(authenticate(app.ctx(), bearer(created.token)))).code).toBe('unauthenticated');
  });

  it('16 parallel revokes of one token: exactly one revokes it, the rest answer revoked: false', async () => {
    const created = await createToken(app.ctx(), { handle: 'ivan', expiresInSeconds: DAY });
    const answers = await Promise.all(Array.from({ length: 16 }, () => revokeToken(app.ctx(), { token_id: created.token_id })));
    expect(answers.filter((a) => a.revoked)).toHaveLength(1);
    expect((await listTokens(app.ctx(), { handle: 'ivan' })).tokens).toEqual([]);
  });
});

describe('listTokens', () => {
  it('lists the live tokens of a handle, oldest first, without any plaintext', async () => {
    const first = await createToken(app.ctx(), { handle: 'jo', expiresInSeconds: DAY, client: 'cli' });
    app.advance(1000);
    const second = await createToken(app.ctx(), { handle: 'jo', expiresInSeconds: 2 * DAY });
    const listed = await listTokens(app.ctx(), { handle: 'JO' });
    expect(listed).toEqual({
      account: first.account,
      handle: 'jo',
      tokens: [
        { token_id: first.token_id, client: 'cli', created_at: expect.any(String), expires_at: first.expires_at },
        { token_id: second.token_id, created_at: expect.any(String), expires_at: second.expires_at },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain(first.token);
  });

  it('an unknown handle is not_found and says how to create it', async () => {
    const error = await refusal(listTokens(app.ctx(), { handle: 'nobody' }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('npm run token -- create --handle nobody');
  });

  it("a local handle that equals a signed-in account's handle gets a local account of its own (handles are display data)", async () => {
    const signedIn = fixtureCaller('kim');
    await ensureAccount(app.ctx(), signedIn);
    const local = await createToken(app.ctx(), { handle: 'kim.test', expiresInSeconds: DAY });
    expect(local.account).not.toBe(signedIn.account);
  });
});

describe('token input is checked before anything is read or written', () => {
  it.each([
    [{ handle: 'has space', expiresInSeconds: DAY }, 'handle'],
    [{ handle: '', expiresInSeconds: DAY }, 'handle'],
    [{ handle: 'alice', expiresInSeconds: 0 }, 'expiresInSeconds'],
    [{ handle: 'alice', expiresInSeconds: 1.5 }, 'expiresInSeconds'],
    [{ handle: 'alice', expiresInSeconds: 366 * DAY }, 'expiresInSeconds'],
    [{ handle: 'alice', expiresInSeconds: DAY, client: '' }, 'client'],
  ])('createToken(%j) is validation_failed naming %s', async (input, field) => {
    app.counter().reset();
    const error = await refusal(createToken(app.ctx(), input));
    expect(error.code).toBe('validation_failed');
    expect(Object.keys((error.details as { fields: Record<string, string> }).fields)).toContain(field);
    expect(app.counter().total()).toBe(0);
  });

  it('revokeToken of something that is neither a token id nor a token is validation_failed', async () => {
    const error = await refusal(revokeToken(app.ctx(), { token_id: 'abc' }));
    expect(error.code).toBe('validation_failed');
  });
});
