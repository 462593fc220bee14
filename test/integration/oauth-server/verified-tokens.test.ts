// Tokens remembered in process (context/verified-tokens.ts), with two server instances on one table in one
// test process, each with its own remembered tokens, and the store clock moved by the test: a
// revocation holds at once on the instance that made it and within TOKEN_TRUST_MS on the other;
// expiry holds to the second wherever the token was remembered.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { TOKEN_TRUST_MS } from '../../../src/app/context/verified-tokens.ts';
import { revokeForAccount } from '../../../src/app/oauth-server/account-access.ts';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import type { SignedInPerson } from '../../../src/app/oauth-server/consent.ts';
import { createToken, revokeToken } from '../../../src/app/oauth-server/tokens.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { tokenId } from '../../../src/auth/token-secret.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { connectedClient } from '../../helpers/oauth/in-process-flow.ts';
import { useOutside } from '../../helpers/outside.ts';

const app = useAppFixture('integration-verified-tokens');
const outside = useOutside(app);
let instanceB: AppContext | undefined;
/** Instance A is the fixture's context; B is another process on the same table and clock. */
const a = (): AppContext => app.ctx();
const b = (): AppContext => (instanceB ??= outside());

const HOUR = 3600;
const bearer = (token: string): string => `Bearer ${token}`;
const refusedReason = async (ctx: AppContext, token: string, resource?: string): Promise<unknown> =>
  authenticate(ctx, bearer(token), resource).then(
    () => 'accepted',
    (error: { code?: string; details?: { reason?: string } }) => `${error.code}: ${error.details?.reason}`,
  );

describe('a revocation is seen at once where it was made, and within 30 s elsewhere', () => {
  it('npm run token revoke on A: A refuses at the next call; B, which remembers the token, refuses once 30 s have passed since it read it', async () => {
    app.freeze();
    const { token } = await createToken(a(), {
      handle: 'revoked-admin',
      expiresInSeconds: HOUR,
    });
    // Both instances serve a call with the token, and so remember it.
    expect(await authenticate(a(), bearer(token))).toMatchObject({
      handle: 'revoked-admin',
    });
    expect(await authenticate(b(), bearer(token))).toMatchObject({
      handle: 'revoked-admin',
    });

    expect(await revokeToken(a(), { token_id: tokenId(token) })).toEqual({
      token_id: tokenId(token),
      revoked: true,
    });
    expect(await refusedReason(a(), token)).toBe('unauthenticated: invalid');
    // B has not read the token since: it may still trust it, up to the bound and never past it.
    app.advance(TOKEN_TRUST_MS - 1);
    expect(await refusedReason(b(), token)).toBe('accepted');
    app.advance(1);
    expect(await refusedReason(b(), token)).toBe('unauthenticated: invalid');
  });

  it('a connected app revoked on the account page of A: its access token is refused on A at once, on B within 30 s', async () => {
    const oauth = oauthServerAt('http://127.0.0.1:9');
    const person: SignedInPerson = {
      account: 'did:plc:verifiedtokens0000000000',
      handle: 'remembered.test',
      sessionCookie: 'lbs_session-remembered',
    };
    await recordBlueskySignIn(a(), {
      did: person.account,
      handle: person.handle,
    });
    const { grantId, tokens } = await connectedClient(
      a(),
      oauth,
      person,
      {
        name: 'remembered-app',
        redirectUri: 'http://127.0.0.1:47501/remembered',
      },
      app.state,
    );
    const accessToken = tokens.access_token;
    // The access token is bound to the resource it was issued for (RFC 8707): present it there.
    const resource = String((await app.state()).find((item) => item.PK === `TOKEN#${tokenId(accessToken)}`)?.resource);
    expect(await refusedReason(a(), accessToken, resource)).toBe('accepted');
    expect(await refusedReason(b(), accessToken, resource)).toBe('accepted');

    expect(
      await revokeForAccount(a(), person.account, {
        kind: 'grant',
        id: grantId,
      }),
    ).toBe(true);
    expect(await refusedReason(a(), accessToken, resource)).toBe('unauthenticated: invalid');
    app.advance(TOKEN_TRUST_MS);
    expect(await refusedReason(b(), accessToken, resource)).toBe('unauthenticated: invalid');
  });

  it('a read of the token that its revocation overtook is not remembered: the next call reads the store again', async () => {
    const { token } = await createToken(a(), {
      handle: 'overtaken',
      expiresInSeconds: HOUR,
    });
    // A's read has started when A's revocation forgets the token; the read answers afterwards, with the token as it was.
    const read = authenticate(a(), bearer(token));
    a().verifiedTokens?.forget([tokenId(token)]);
    await read;
    await revokeToken(b(), { token_id: tokenId(token) });
    expect(await refusedReason(a(), token)).toBe('unauthenticated: invalid');
  });
});

describe('a remembered token still expires on time', () => {
  it('a token of 10 s is accepted at 9.999 s and refused at 10 s on the instance that remembers it', async () => {
    app.freeze();
    const { token } = await createToken(a(), {
      handle: 'short-lived',
      expiresInSeconds: 10,
    });
    expect(await refusedReason(a(), token)).toBe('accepted');
    const into = a().store.now() % 1000;
    // Expiry is whole epoch seconds: 10 s after creation, counted from the second it was created in.
    app.advance(10_000 - into - 1);
    expect(await refusedReason(a(), token)).toBe('accepted');
    app.advance(1);
    expect(await refusedReason(a(), token)).toBe('unauthenticated: invalid');
  });
});

describe('remembered tokens are keyed by the hash', () => {
  it('the entry is found under the token id and never under the token', async () => {
    const { token } = await createToken(a(), {
      handle: 'hashed-key',
      expiresInSeconds: HOUR,
    });
    await authenticate(a(), bearer(token));
    const now = a().store.now();
    expect(a().verifiedTokens?.lookUp(tokenId(token), now)?.caller).toMatchObject({ handle: 'hashed-key' });
    expect(a().verifiedTokens?.lookUp(token, now)).toBeUndefined();
  });
});

beforeAll(() => {
  // Both instances keep tokens: the fixture's and useOutside's contexts each have their own.
  expect(a().verifiedTokens).toBeDefined();
  expect(b().verifiedTokens).toBeDefined();
  expect(b().verifiedTokens).not.toBe(a().verifiedTokens);
});
