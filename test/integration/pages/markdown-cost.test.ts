// Bounded cost for any input, through the real server over DynamoDB Local: the 64 KiB
// hostile shapes are refused by POST /v1/stories with validation_failed naming the limit (fast,
// nothing written); a story stored before the limits existed is served degraded; GET / is not
// held up while hostile and worst-accepted stories are published and viewed; and 100 views of
// a table that renders to 160 MB, stored before the limits, do not grow the process's memory.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodyKey } from '../../../src/store/keys.ts';
import { HOSTILE_CASES, storyWithNarrative, WORST_ACCEPTED } from '../../helpers/hostile-markdown.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';

const server = useLorebookServer('pages-markdown-cost');
let token = '';

beforeAll(async () => {
  token = (await server.token('mallory')).token;
});

/** Every item but the rate-limit windows, which count each request whatever its answer. */
const storedStories = async (): Promise<unknown[]> => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

/** Plain prose about as long as the hostile narratives. */
const PLAIN = 'I retried the write and the counter moved twice, so I read the docs again.\n\n'.repeat(760);

const timed = async (send: () => Promise<Response>): Promise<{ response: Response; ms: number }> => {
  const started = performance.now();
  const response = await send();
  await response.clone().arrayBuffer();
  return { response, ms: performance.now() - started };
};

const publish = (markdown: string): Promise<Response> =>
  server.fetch('/v1/stories', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
    body: markdown,
  });

const published = async (markdown: string): Promise<string> => {
  const response = await publish(markdown);
  expect(response.status).toBe(201);
  return ((await response.json()) as { slug: string }).slug;
};

describe('hostile markdown through POST /v1/stories', () => {
  it.each(HOSTILE_CASES.map((hostile, index) => [hostile.name, hostile, index] as const))(
    '%s is refused with 422 validation_failed naming the limit, in under a second, and nothing is written',
    async (_name, hostile, index) => {
      const before = await storedStories();
      // The reference: a refused plain story of the same size (token, rate window and a full parse
      // included), so the bound is on what the hostile shape adds, not on the shared DynamoDB Local.
      const reference = await timed(() => publish(storyWithNarrative(`Plain ${index}`, PLAIN).replace('type: success', 'type: nonsense')));
      expect(reference.response.status).toBe(422);
      const { response, ms } = await timed(() => publish(storyWithNarrative(`Hostile ${index}`, hostile.narrative)));
      const body = (await response.json()) as { code: string; retryable: boolean; details: { fields: Record<string, string> } };
      expect(response.status).toBe(422);
      expect(body.code).toBe('validation_failed');
      expect(body.retryable).toBe(false);
      expect(body.details.fields.markdown).toContain(`the ${hostile.limit} limit is`);
      expect(ms - reference.ms).toBeLessThan(1000);
      expect(await storedStories()).toEqual(before);
    },
  );
});

describe('a story stored before the limits existed', () => {
  it('is served as escaped plain text with a note naming the limit, not rendered', async () => {
    const slug = await published(storyWithNarrative('Stored before the limits', 'Fine at first.'));
    const hostile = HOSTILE_CASES.find((entry) => entry.name === '`*_` runs');
    const stored = storyWithNarrative('Stored before the limits', `<i>old</i>\n\n${hostile?.narrative}`);
    await server.app.ctx().store.client.send(
      new UpdateCommand({
        TableName: server.app.ctx().store.tableName,
        Key: bodyKey(slug),
        UpdateExpression: 'SET markdown = :markdown',
        ExpressionAttributeValues: { ':markdown': stored },
      }),
    );
    // The reference: the first view of a plain story of the same size, rendered in full.
    const plain = await published(storyWithNarrative('Plain, viewed once', PLAIN));
    const reference = await timed(() => server.fetch(`/s/${plain}`));
    const { response, ms } = await timed(() => server.fetch(`/s/${slug}`));
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(ms - reference.ms).toBeLessThan(1000);
    expect(page).toContain('This story is shown as plain text: its markdown is over the emphasis delimiter runs limit (256).');
    expect(page).toContain('&lt;i&gt;old&lt;/i&gt;');
    expect(page).not.toContain('<em>');
  });
});

/** GET / over and over until `stop` settles: the latency of each. */
async function homePageLatencies(stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await server.fetch('/');
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** The longest the event loop was held while `run` ran: how long any request had to wait for it. */
async function longestStall(run: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    await run();
  } finally {
    delay.disable();
  }
  return delay.max / 1e6;
}

/** Publishes each story, then views it, one after the other. */
async function publishAndView(label: string, narratives: string[]): Promise<void> {
  for (const [index, narrative] of narratives.entries()) {
    const response = await publish(storyWithNarrative(`${label} ${index}`, narrative));
    if (response.status !== 201) continue;
    const { slug } = (await response.json()) as { slug: string };
    expect((await server.fetch(`/s/${slug}`)).status).toBe(200);
  }
}

/** The longest event-loop stall and the GET / latencies while `load` runs. */
async function underLoad(load: () => Promise<void>): Promise<{ stall: number; latencies: number[] }> {
  let latencies: number[] = [];
  const stall = await longestStall(async () => {
    const running = load();
    latencies = await homePageLatencies(running);
    await running;
  });
  return { stall, latencies };
}

describe('a concurrent GET /', () => {
  it('is never held up by parsing or rendering while the hostile and the worst accepted stories are published and viewed', {
    timeout: 300_000,
  }, async () => {
    // Warm up first: the first request of a process builds routes, schemas and the worker itself.
    const warm = await published(storyWithNarrative('Concurrent warm-up', 'Plain words.'));
    await (await server.fetch(`/s/${warm}`)).arrayBuffer();
    const hostile = [...HOSTILE_CASES.map((entry) => entry.narrative), ...WORST_ACCEPTED.map((entry) => entry.narrative)];
    // The reference, in the same run: as many plain stories of the same size, published and viewed
    // the same way. What it measures is the machine (other test files, GC, DynamoDB Local), so the
    // bound is on what the hostile shapes add to it.
    const reference = await underLoad(() =>
      publishAndView(
        'Concurrent plain',
        hostile.map(() => PLAIN),
      ),
    );
    const during = await underLoad(() => publishAndView('Concurrent hostile', hostile));
    process.stdout.write(
      `GET / during the hostile load: ${during.latencies.length} answered, worst ${Math.max(...during.latencies).toFixed(0)} ms (mostly DynamoDB Local); ` +
        `the event loop was held at most ${during.stall.toFixed(0)} ms (plain stories of the same size: ${reference.stall.toFixed(0)} ms)\n`,
    );
    // What holds up every request is a blocked event loop: parsing or rendering inline held it for
    // seconds (BENCHMARKS.md, "markdown cost"). The latency itself waits on the shared DynamoDB Local.
    expect(during.stall - reference.stall).toBeLessThan(200);
  });
});

describe('memory', () => {
  it("100 views of the issue's 2,000-column table, stored before the limits, grow the process by less than 100 MB", {
    timeout: 300_000,
  }, async () => {
    // Rendered in full, this 25.6 KB table is a 160 MB page, and the cache used to keep it: RSS went
    // from 168 MB to 1.42 GB. Served degraded, each view is about the size of its markdown.
    const table = HOSTILE_CASES.find((entry) => entry.name.startsWith('a 2,000-column table'));
    const slug = await published(storyWithNarrative('Viewed a hundred times', 'Fine at first.'));
    await server.app.ctx().store.client.send(
      new UpdateCommand({
        TableName: server.app.ctx().store.tableName,
        Key: bodyKey(slug),
        UpdateExpression: 'SET markdown = :markdown',
        ExpressionAttributeValues: { ':markdown': storyWithNarrative('Viewed a hundred times', table?.narrative ?? '') },
      }),
    );
    const before = process.memoryUsage().rss;
    let largest = 0;
    // Four at a time: each view waits mostly on the shared DynamoDB Local (the access count, the reads).
    for (let wave = 0; wave < 25; wave += 1) {
      const pages = await Promise.all(Array.from({ length: 4 }, async () => (await server.fetch(`/s/${slug}`)).arrayBuffer()));
      largest = Math.max(largest, ...pages.map((page) => page.byteLength));
    }
    const grown = process.memoryUsage().rss - before;
    process.stdout.write(`100 views of a ${largest}-byte page: RSS grew ${(grown / 1024 / 1024).toFixed(1)} MB\n`);
    expect(largest).toBeLessThan(1024 * 1024);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });
});
