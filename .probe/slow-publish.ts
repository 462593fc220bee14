// Probe (not committed): a victim alone against npm start for 150 s; logs every call over 200 ms with its time since start.
import { request } from 'node:http';
import { type AppContext, DEFAULT_APP_CONFIG } from '../src/app/context/app-context.ts';
import { createToken } from '../src/app/oauth-server/tokens.ts';
import { ensureTable } from '../src/store/bootstrap.ts';
import { createStoreClient } from '../src/store/client.ts';
import { startDynamoDbLocal } from '../integrations/dynamodb-local/index.ts';
import { startNpmStart } from '../test/helpers/npm-start.ts';
import { storyTitled } from '../test/helpers/stories.ts';

const ddb = await startDynamoDbLocal({ log: () => {} });
const client = createStoreClient({ endpoint: ddb.endpoint });
const table = `probe-${Date.now()}`;
const ctx: AppContext = { store: { client, tableName: table, now: Date.now }, config: DEFAULT_APP_CONFIG, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), random: Math.random };
await ensureTable(client, table);
const token = (await createToken(ctx, { handle: 'probe-victim', expiresInSeconds: 3600 })).token;
const server = await startNpmStart({ endpoint: ddb.endpoint, table, env: { LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000', LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000' } });
const t0 = performance.now();
const send = (path: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> =>
  new Promise((resolve) => {
    const req = request(`${server.baseUrl}${path}`, { method, headers, localAddress: '127.0.0.1' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
let n = 0;
const all: number[] = [];
while (performance.now() - t0 < 150_000) {
  n += 1;
  const s = performance.now();
  const p = await send('/v1/stories', 'POST', storyTitled(`Probe round ${n} ${Date.now()}`), { Authorization: `Bearer ${token}`, 'Content-Type': 'text/markdown' });
  const ms = performance.now() - s;
  all.push(ms);
  if (ms > 200) console.log(`publish ${n} at ${((s - t0) / 1000).toFixed(1)} s: ${ms.toFixed(0)} ms (${p.status})`);
  const slug = (JSON.parse(p.body) as { slug?: string }).slug;
  const g0 = performance.now();
  await send(`/v1/stories/${slug}`, 'GET');
  const g = performance.now() - g0;
  if (g > 100) console.log(`get ${n} at ${((g0 - t0) / 1000).toFixed(1)} s: ${g.toFixed(0)} ms`);
  await new Promise((r) => setTimeout(r, 100));
}
all.sort((a, b) => a - b);
console.log(`rounds ${n}, publish p50 ${all[Math.floor(n / 2)]?.toFixed(0)} p99 ${all[Math.floor(n * 0.99)]?.toFixed(0)} max ${all[n - 1]?.toFixed(0)}`);
console.log(server.output().split('\n').filter((l) => !l.includes('GET') && !l.includes('POST')).slice(-40).join('\n'));
await server.stop();
client.destroy();
await ddb.stop();
