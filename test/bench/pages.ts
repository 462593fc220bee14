// `npm run bench:pages`: what server-rendering costs. Over one DynamoDB Local and the hono app
// in-process, the same story is read as a page (GET /s/{slug}: the read plus markdown rendering
// and the HTML template) and as JSON (GET /v1/stories/{slug}: the same read, no rendering); the
// newest 50 stories as the Atom feed and as JSON (GET /v1/stories?limit=50). Requests alternate,
// so both sides see the same machine load. Prints p50/p99 and the ratio page/JSON (story pages
// reuse a rendered body: src/http/pages/rendered-bodies.ts); then the markdown
// renderer alone, per story and for a ~60 KiB body, against JSON.stringify of the same view.

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { getStory } from '../../src/app/queries/get-story.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { renderMarkdown, storyBodyMarkdown } from '../../src/http/pages/render-markdown.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { storyWithEverything } from '../helpers/page-stories.ts';
import { storyTitled } from '../helpers/stories.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_PAGES_ROUNDS ?? 300);
const WARM_UP = 30;
const BASE = 'http://127.0.0.1:8787';
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
try {
  const ctx: AppContext = {
    store: { client, tableName: 'bench-pages', now: Date.now },
    config: { ...DEFAULT_APP_CONFIG, anonymousRateLimitPerMinute: 10_000_000 },
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  await ensureTable(client, ctx.store.tableName);
  const made = await createToken(ctx, { handle: 'bench', expiresInSeconds: 3600 });
  const author = { account: made.account, handle: 'bench' };
  log('bench:pages: publishing 50 stories (one with reports, checks and three revisions)');
  const slug = await storyWithEverything(ctx, author, 'The story the bench reads');
  for (let index = 1; index < 50; index += 1) await publishStory(ctx, author, { markdown: storyTitled(`Bench list story ${index}`) });
  const app = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl: BASE, allowedOrigins: [] });
  const get = async (path: string): Promise<number> => {
    const start = performance.now();
    const response = await app.request(`${BASE}${path}`, { headers: { host: '127.0.0.1:8787' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return performance.now() - start;
  };

  const pair = async (name: string, page: string, json: string): Promise<void> => {
    for (let index = 0; index < WARM_UP; index += 1) await Promise.all([get(page), get(json)]);
    const pages: number[] = [];
    const jsons: number[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      // Alternating which goes first, so neither side always meets a warm cache.
      if (index % 2 === 0) {
        pages.push(await get(page));
        jsons.push(await get(json));
      } else {
        jsons.push(await get(json));
        pages.push(await get(page));
      }
    }
    const p50 = percentile(pages, 50) / percentile(jsons, 50);
    log(
      `${name}: page p50 ${ms(percentile(pages, 50))} ms p99 ${ms(percentile(pages, 99))} ms | JSON p50 ${ms(percentile(jsons, 50))} ms p99 ${ms(percentile(jsons, 99))} ms | page/JSON at p50 ${ratio(p50)} (${ROUNDS} each)`,
    );
  };

  await pair('story', `/s/${slug}`, `/v1/stories/${slug}`);
  await pair('newest 50', '/feed.atom', '/v1/stories?limit=50');

  const view = await getStory(ctx, undefined, { slug });
  const body = storyBodyMarkdown(view.markdown);
  const time = (task: () => unknown, count: number): number => {
    const start = performance.now();
    for (let index = 0; index < count; index += 1) task();
    return ((performance.now() - start) * 1000) / count;
  };
  time(() => renderMarkdown(body), 200);
  const render = time(() => renderMarkdown(body), 2_000);
  const stringify = time(() => JSON.stringify(view), 2_000);
  log(
    `markdown: renderMarkdown ${render.toFixed(1)} µs per story (${view.markdown.length} chars) vs JSON.stringify of the view ${stringify.toFixed(1)} µs: ${ratio(render / stringify)}`,
  );
  const big = body.repeat(Math.floor(60_000 / body.length));
  const bigRender = time(() => renderMarkdown(big), 20);
  const bigStringify = time(() => JSON.stringify({ ...view, markdown: big }), 200);
  log(
    `markdown: a ${Math.round(big.length / 1024)} KiB body renders in ${ms(bigRender / 1000)} ms vs JSON.stringify ${ms(bigStringify / 1000)} ms: ${ratio(bigRender / bigStringify)} (why story pages cache the rendered body)`,
  );
} finally {
  client.destroy();
  await ddb.stop();
}
