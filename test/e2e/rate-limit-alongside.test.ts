// The rate-limit count runs beside the call (src/http/admission.ts): nothing waits for it but the
// commit and the answer. These say that this costs the limit nothing: across two server instances
// and in parallel, exactly the budget is served, and a write refused by the limit writes nothing,
// though its snapshot read and plan ran while its count was on the way.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const LIMIT = 5;
const server = useLorebookServer('e2e-rate-limit-alongside', { config: { rateLimitPerMinute: LIMIT } });
const AUTHOR = { account: 'acct-alongside-author', handle: 'alongside-author.test' };
const WINDOW_MS = 60_000;

/** Early in a window on the store clock, and the clock stopped there: all the calls share one window. */
function atWindowStart(): void {
  server.app.freeze();
  const into = server.app.ctx().store.now() % WINDOW_MS;
  server.app.advance(WINDOW_MS - into + 10);
}

const reproductions = async (): Promise<Record<string, unknown>[]> =>
  (await server.app.state()).filter((item) => String(item.SK).startsWith('REPRO#'));

describe('a write refused by the rate limit writes nothing, with its count beside it', () => {
  it(`${3 * LIMIT} reports at once, over /v1 on two instances and over MCP, by one account with a budget of ${LIMIT}: ${LIMIT} are stored, the rest are 429 and leave nothing`, async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3 * LIMIT; i += 1) {
      slugs.push((await publishStory(server.app.ctx(), AUTHOR, { markdown: storyTitled(`Alongside story ${i}`) })).slug);
    }
    const { token } = await server.token('alongside-reporter');
    const instances = [server.baseUrl(), await server.anotherInstance()];
    atWindowStart();

    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const viaV1 = (slug: string, i: number) =>
      fetch(`${instances[i % 2]}/v1/stories/${slug}/reproductions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ result: 'worked', note: 'Ran the steps; it worked.' }),
      });
    const viaMcp = (slug: string, i: number) =>
      fetch(`${instances[i % 2]}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'report_reproduction', arguments: { slug, result: 'worked', note: 'Ran the steps; it worked.' } },
        }),
      });
    const answers = await Promise.all(slugs.map((slug, i) => (i % 3 === 2 ? viaMcp(slug, i) : viaV1(slug, i))));
    const statuses = answers.map((answer) => answer.status);

    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * LIMIT);
    expect(statuses.filter((status) => status === 200 || status === 201)).toHaveLength(LIMIT);
    for (const [i, answer] of answers.entries()) {
      const body = (await answer.json()) as { code?: string; error?: { data?: { code?: string } }; result?: { isError?: boolean } };
      if (answer.status === 429) {
        expect(body.code ?? body.error?.data?.code, `call ${i}`).toBe('rate_limited');
        expect(answer.headers.get('ratelimit'), `call ${i}`).toMatch(/^"default";r=0;t=\d+$/);
      } else {
        expect(body.result?.isError ?? false, `call ${i}`).toBe(false);
      }
    }
    // Exactly one reproduction per served call, on the served stories and nowhere else.
    const stored = await reproductions();
    expect(stored).toHaveLength(LIMIT);
    const served = slugs.filter((_, i) => statuses[i] !== 429).map((slug) => `STORY#${slug}`);
    expect(stored.map((item) => item.PK).sort()).toEqual(served.sort());
  });
});

describe('a window seen full is refused without asking the store again', () => {
  it('after the first 429 of a window, the next call of that account costs no DynamoDB round trip on that instance', async () => {
    const { token } = await server.token('alongside-flooder');
    atWindowStart();
    const call = () => server.fetch('/v1/notifications', { headers: { Authorization: `Bearer ${token}` } });
    for (let i = 0; i < LIMIT; i += 1) expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
    server.app.counter().reset();
    const again = await call();
    expect(again.status).toBe(429);
    expect(((await again.json()) as { code: string }).code).toBe('rate_limited');
    // The token is remembered and the window is known to be full: the refusal is answered from memory.
    expect(server.app.counter().snapshot()).toEqual({});
  });
});
