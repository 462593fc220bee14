// Storage filling: anonymous registrations cannot fill the table. A client that never completes
// an authorization is forgotten after 24 h (its TTL); exchanging a code moves it to the long
// lifetime; and new registrations are budgeted per hour per client address, so one address's
// burst never blocks another's registration (design.md#admission; the second address is seen through
// npm start's socket, test/e2e/admission-npm-start.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizationCode,
  authorizePath,
  exchange,
  get,
  newClient,
  type Person,
  pkcePair,
  post,
  refreshWith,
  registerClient,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const DAY_SECONDS = 24 * 3600;
const clients = async (app: { state(): Promise<Record<string, unknown>[]> }) =>
  (await app.state()).filter((item) => String(item.PK).startsWith('OAUTHCLIENT#'));
const nowSeconds = (server: { app: { ctx(): { store: { now(): number } } } }) => Math.floor(server.app.ctx().store.now() / 1000);
/** The test clock runs: a time stamped during a call lies between the clock before and after it. */
const between = (low: number, high: number) => expect.toSatisfy((value: number) => value >= low && value <= high);
/** Everything but the per-IP rate windows every call counts (the address's registration window stays in). */
const stored = async (app: { state(): Promise<Record<string, unknown>[]> }) =>
  (await app.state()).filter((item) => !String(item.PK).startsWith('RATE#ip:'));

describe('a registered client lives 24 h until it completes an authorization', () => {
  const server = useLorebookServer('e2e-oauth-client-ttl');
  let alice: Person;
  beforeAll(async () => {
    alice = await signedInPerson(server.app.ctx(), 'alice');
  });

  it('never authorized: stored with a 24 h TTL, and unknown to authorize and token after it', async () => {
    const registeredFrom = nowSeconds(server);
    const client = await newClient(server.baseUrl(), 'Never used');
    const [item] = (await clients(server.app)).filter((stored) => stored.client_id === client.client_id);
    expect(item?.expires_at).toEqual(between(registeredFrom + DAY_SECONDS, nowSeconds(server) + DAY_SECONDS));
    expect(item).not.toHaveProperty('authorized_at');
    server.app.advance(DAY_SECONDS * 1000);
    const page = await get(
      server.baseUrl(),
      authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge }),
      alice.cookie,
    );
    expect(page.status).toBe(400);
    expect(page.text).toContain('not registered with lorebook');
    const token = await post(server.baseUrl(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: 'lba_x',
      redirect_uri: client.redirect_uri,
      code_verifier: pkcePair().verifier,
    });
    expect(token.status).toBe(401);
    expect(token.json().error).toBe('invalid_client');
  });

  it('a code exchanged: marked authorized, kept 180 days from then, and each refresh keeps it that long', async () => {
    const client = await newClient(server.baseUrl(), 'Used');
    const { code, pkce } = await authorizationCode(server.baseUrl(), alice, client);
    const exchangedFrom = nowSeconds(server);
    const tokens = await exchange(server.baseUrl(), client, code, pkce.verifier);
    expect(tokens.status).toBe(200);
    const [item] = (await clients(server.app)).filter((stored) => stored.client_id === client.client_id);
    expect(item).toMatchObject({
      expires_at: between(exchangedFrom + 180 * DAY_SECONDS, nowSeconds(server) + 180 * DAY_SECONDS),
      authorized_at: expect.any(String),
    });
    const authorizedAt = item?.authorized_at;

    server.app.advance(2 * DAY_SECONDS * 1000);
    const refreshedFrom = nowSeconds(server);
    const refreshed = await refreshWith(server.baseUrl(), client, String(tokens.json().refresh_token));
    expect(refreshed.status).toBe(200);
    const [later] = (await clients(server.app)).filter((stored) => stored.client_id === client.client_id);
    expect(later).toMatchObject({
      expires_at: between(refreshedFrom + 180 * DAY_SECONDS, nowSeconds(server) + 180 * DAY_SECONDS),
      authorized_at: authorizedAt,
    });
    expect(Number(later?.expires_at)).toBeGreaterThan(Number(item?.expires_at));
  });
});

describe('the registration budget, per client address', () => {
  const server = useLorebookServer('e2e-oauth-registration-budget', { oauthSettings: { registrationsPerHour: 3 } });
  const register = (name: string) => registerClient(server.baseUrl(), { client_name: name, redirect_uris: ['https://budget.example/cb'] });

  it("past the hour's budget a new registration is 429 rate_limited with Retry-After and writes nothing; a known client is still answered; the next hour registers again", async () => {
    const first = await register('one');
    // The same registration twice, and 16 times at once, is one client and spends one slot.
    await Promise.all(Array.from({ length: 16 }, () => register('one')));
    expect((await register('one')).json()).toEqual(first.json());
    expect((await register('two')).status).toBe(201);
    expect((await register('three')).status).toBe(201);
    const before = await stored(server.app);

    const refused = await register('four');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retry_after_ms: expect.any(Number),
      details: { reason: 'registration_budget', limit: 3 },
    });
    expect(await stored(server.app)).toEqual(before);

    const known = await register('two');
    expect(known.status).toBe(201);
    expect(await stored(server.app)).toEqual(before);

    server.app.advance(3600_000);
    expect((await register('four')).status).toBe(201);
    expect((await clients(server.app)).map((item) => item.client_name).sort()).toEqual(['four', 'one', 'three', 'two']);
  });

  it('16 different registrations at once never make more clients than the budget left', async () => {
    server.app.advance(3600_000);
    const before = (await clients(server.app)).length;
    const answers = await Promise.all(Array.from({ length: 16 }, (_, index) => register(`parallel ${index}`)));
    const created = (await clients(server.app)).length - before;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(3);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(created);
    for (const answer of answers.filter((other) => other.status !== 201)) expect(answer.json().code).toMatch(/^(rate_limited|conflict)$/);
  }, 120_000); // sixteen contending transactions re-plan: generous for a loaded machine
});
