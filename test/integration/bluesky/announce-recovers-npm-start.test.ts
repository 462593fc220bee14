// The issue's own setup, end to end: a real `npm start` (LOREBOOK_ANNOUNCE_BACKOFF_MS=1000, and a
// sweep interval of 5 min that must not be waited out) posting as the test PDS's account through the TCP
// fault proxy, which destroys every connection while a story is published over HTTP and for a
// while after, then forwards again. The post appears exactly once on the PDS within a minute of
// the restore, and `npm run sweep` afterwards finds nothing due and nothing skipped.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { type NpmStart, startNpmStart } from '../../helpers/npm-start.ts';
import { useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { startTcpFaultProxy, type TcpFaultProxy } from '../../helpers/tcp-fault-proxy.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('bluesky-announce-recovers-npm-start');
const bsky = useBluesky();
let proxy: TcpFaultProxy | undefined;
let server: NpmStart | undefined;
const OUTAGE_MS = 3_000;
/** The minute: the 1 s backoff, not the 5 min interval, decides. */
const RECOVERY_BOUND_MS = 60_000;
/** npm start and npm run sweep are cold Node starts importing @atproto/api: slow on a busy machine. */
const TEST_MS = 180_000;

const env = (): Record<string, string> => ({
  BLUESKY_SERVICE: (proxy as TcpFaultProxy).url,
  BLUESKY_IDENTIFIER: bsky.account().handle,
  BLUESKY_APP_PASSWORD: bsky.account().appPassword,
  LOREBOOK_ANNOUNCE_BACKOFF_MS: '1000',
  LOREBOOK_ANNOUNCE_TIMEOUT_MS: '4000',
  LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS: '300000',
});

beforeAll(async () => {
  proxy = await startTcpFaultProxy({ port: bsky.pds().port });
  server = await startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName, env: env() });
}, TEST_MS);
afterAll(async () => {
  await server?.stop();
  await proxy?.close();
}, TEST_MS);

describe('npm start behind a proxy that destroys every connection, then forwards again', () => {
  it(
    `the story published during the outage is posted exactly once within ${RECOVERY_BOUND_MS / 1000} s of the restore; npm run sweep then finds nothing due or skipped`,
    async () => {
      const { token, account } = await createToken(app.ctx(), { handle: 'alice', expiresInSeconds: 3600 });
      const alice = { account, handle: 'alice' };
      await (proxy as TcpFaultProxy).set('destroy');
      const response = await fetch(`${(server as NpmStart).baseUrl}/v1/stories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
        body: storyTitled('Published while every connection was destroyed'),
      });
      expect(response.status).toBe(201);
      const { slug } = (await response.json()) as { slug: string };
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({
        state: 'pending',
        last_error: expect.stringMatching(/could not be reached/),
      });

      await (proxy as TcpFaultProxy).set('forward');
      const restoredAt = performance.now();
      while (
        (await getStory(app.ctx(), alice, { slug })).announce.state !== 'posted' &&
        performance.now() - restoredAt < RECOVERY_BOUND_MS
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const posts = (await bsky.posts()).filter((post) => post.value.embed?.external.uri === `${(server as NpmStart).baseUrl}/s/${slug}`);
      expect(posts, (server as NpmStart).output()).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });

      const childEnv = withoutLorebookSettings();
      Object.assign(childEnv, env(), { LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName });
      const swept = await run('npm', ['run', '--silent', 'sweep', '--', '--json'], { env: childEnv, timeout: 60_000 });
      expect(JSON.parse(swept.stdout)).toMatchObject({ due: 0, skipped: [] });
      expect(await bsky.posts().then((all) => all.filter((post) => post.uri === posts[0]?.uri))).toHaveLength(1);
    },
    TEST_MS,
  );
});
