// `npm run bench:cost`: what one MCP tool call costs on AWS, measured rather than guessed. The
// real handlers/http.ts is driven by the MCP SDK client through synthetic Function URL events
// (test/helpers/function-url.ts) against DynamoDB Local, behind a proxy that counts DynamoDB
// calls and sums the capacity units DynamoDB answers with ReturnConsumedCapacity (4 KB reads,
// 1 KB writes, transactions twice, index writes included: what on-demand bills). Prices are
// constants below (AWS is not reachable from here); the handler time is this machine's, shown
// against a reference (ping, which touches no DynamoDB) measured in the same run.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHttpHandler, type HttpHandler } from '../../handlers/http.ts';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { startDynamoDbRecorder, type Usage } from '../helpers/dynamodb-recorder.ts';
import { FUNCTION_URL, functionUrlFetch } from '../helpers/function-url.ts';
import { storyTitled } from '../helpers/stories.ts';
import { ms, percentile } from './stats.ts';

/** On-demand and Lambda list prices, us-east-1, as last published (DynamoDB: since the 1 Nov 2024 cut). Not checkable offline. */
export const PRICES = {
  perMillionWriteUnits: 0.625,
  perMillionReadUnits: 0.125,
  lambdaPerMillionRequests: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  httpMemoryGb: 1,
} as const;

const HELP = `usage: npm run bench:cost [-- --calls <n>] [--json]

Drives the real Lambda http handler with the MCP SDK client against DynamoDB Local and prints,
per kind of tool call: DynamoDB calls, read/write capacity units (as DynamoDB reports them), the
DynamoDB on-demand cost and the Lambda cost per million calls at the prices in
test/bench/lambda-cost.ts (us-east-1), and the handler time on this machine against ping.

options:
  --calls <n>  calls per kind (default 40, 5-500)
  --json       print the results as JSON
  -h, --help   this text
`;

const err = (line: string): void => void process.stderr.write(`${line}\n`);

interface Row {
  kind: string;
  calls: number;
  dynamodbCalls: number;
  readUnits: number;
  writeUnits: number;
  handlerMsP50: number;
  operations: string;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      calls: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const n = values.calls === undefined ? 40 : Number(values.calls);
  if (!Number.isInteger(n) || n < 5 || n > 500) {
    err(`bench:cost: --calls must be a whole number from 5 to 500\n\n${HELP}`);
    return 2;
  }
  err('bench:cost: starting DynamoDB Local');
  const ddb = await startDynamoDbLocal({ log: () => {} });
  const recorder = await startDynamoDbRecorder(ddb.endpoint, { capacity: true });
  const direct = createStoreClient({ endpoint: ddb.endpoint });
  const clients: Client[] = [];
  try {
    const tableName = 'lorebook-cost';
    await ensureTable(direct, tableName);
    const setup = {
      store: { client: direct, tableName, now: Date.now },
      config: DEFAULT_APP_CONFIG,
      sleep: async () => {},
      random: Math.random,
    };
    const timings: number[] = [];
    const handler = createHttpHandler({
      env: {
        LOREBOOK_DDB_ENDPOINT: recorder.url,
        LOREBOOK_TABLE: tableName,
        LOREBOOK_RATE_LIMIT_PER_MINUTE: '1000000',
        LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '1000000',
      },
      log: () => {},
    });
    const timed: HttpHandler = async (event, context) => {
      const started = performance.now();
      const answer = await handler(event, context);
      timings.push(performance.now() - started);
      return answer;
    };
    const connect = async (token?: string): Promise<Client> => {
      const client = new Client({ name: 'lorebook-cost', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${FUNCTION_URL}/mcp`), {
          fetch: functionUrlFetch(timed),
          requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      return client;
    };
    const tokenFor = async (handle: string): Promise<string> => (await createToken(setup, { handle, expiresInSeconds: 3600 })).token;
    const author = await connect(await tokenFor('author'));
    const reporters = await Promise.all(Array.from({ length: n }, async (_v, i) => connect(await tokenFor(`reporter-${i}`))));
    const anonymous = await connect();
    const { structuredContent } = await author.callTool({
      name: 'publish_story',
      arguments: { markdown: storyTitled('The story everyone reports on') },
    });
    const slug = String((structuredContent as { slug: string }).slug);

    const rows: Row[] = [];
    const measure = async (kind: string, call: (i: number) => Promise<unknown>): Promise<void> => {
      err(`bench:cost: ${kind} x${n}`);
      recorder.reset();
      timings.length = 0;
      for (let i = 0; i < n; i += 1) {
        const answer = (await call(i)) as { isError?: boolean; structuredContent?: unknown } | undefined;
        if (answer?.isError === true) throw new Error(`${kind} was refused: ${JSON.stringify(answer.structuredContent)}`);
      }
      const usage: Usage = recorder.usage();
      const total = Object.values(usage.calls).reduce((a, b) => a + b, 0);
      rows.push({
        kind,
        calls: n,
        dynamodbCalls: total / n,
        readUnits: usage.readUnits / n,
        writeUnits: usage.writeUnits / n,
        handlerMsP50: percentile(timings, 50),
        operations: Object.entries(usage.calls)
          .map(([op, count]) => `${(count / n).toFixed(2).replace(/\.00$/, '')} ${op}`)
          .join(' + '),
      });
    };
    await measure('ping (reference, no DynamoDB)', () => anonymous.ping());
    await measure('publish_story, first call', (i) =>
      author.callTool({ name: 'publish_story', arguments: { markdown: storyTitled(`Cost story ${i}`), op_id: `op-cost-${i}` } }),
    );
    await measure('publish_story, op_id replay', (i) =>
      author.callTool({ name: 'publish_story', arguments: { markdown: storyTitled(`Cost story ${i}`), op_id: `op-cost-${i}` } }),
    );
    await measure('report_reproduction, first report', (i) =>
      (reporters[i] as Client).callTool({
        name: 'report_reproduction',
        arguments: { slug, result: 'worked', note: 'Worked on the first try.' },
      }),
    );
    await measure('report_reproduction, identical again', (i) =>
      (reporters[i] as Client).callTool({
        name: 'report_reproduction',
        arguments: { slug, result: 'worked', note: 'Worked on the first try.' },
      }),
    );
    await measure('get_story (with a token)', (i) => (reporters[i] as Client).callTool({ name: 'get_story', arguments: { slug } }));
    await measure('search_stories (anonymous)', () => anonymous.callTool({ name: 'search_stories', arguments: { query: 'cost story' } }));
    await measure('list_notifications', () => author.callTool({ name: 'list_notifications', arguments: {} }));

    const dynamoCost = (row: Row): number => row.readUnits * PRICES.perMillionReadUnits + row.writeUnits * PRICES.perMillionWriteUnits;
    const lambdaCost = (row: Row): number =>
      PRICES.lambdaPerMillionRequests + (row.handlerMsP50 / 1000) * PRICES.httpMemoryGb * PRICES.lambdaArmPerGbSecond * 1_000_000;
    const reference = (rows[0] as Row).handlerMsP50;
    const results = rows.map((row) => ({
      ...row,
      dynamodbPerMillion: dynamoCost(row),
      lambdaPerMillion: lambdaCost(row),
      handlerVsPing: row.handlerMsP50 / reference,
    }));
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ calls: n, prices: PRICES, results }, null, 2)}\n`);
      return 0;
    }
    const usd = (value: number): string => `$${value.toFixed(2)}`;
    const lines = [
      `cost per MCP tool call through handlers/http.ts, ${n} calls per kind (DynamoDB Local capacity accounting; prices in test/bench/lambda-cost.ts)`,
      '',
      '| tool call | DynamoDB calls | RRU | WRU | DynamoDB $/1M calls | handler p50 ms | vs ping | Lambda $/1M calls (1 GB arm64 at that time) | operations per call |',
      '|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.kind} | ${r.dynamodbCalls.toFixed(2)} | ${r.readUnits.toFixed(2)} | ${r.writeUnits.toFixed(2)} | ${usd(r.dynamodbPerMillion)} | ${ms(r.handlerMsP50)} | ${(r.handlerVsPing).toFixed(2)}× | ${usd(r.lambdaPerMillion)} | ${r.operations || '-'} |`,
      ),
      '',
      "Handler time is this machine's (DynamoDB Local on loopback, 2 shared cores); on Lambda a DynamoDB round trip in-region is ~3-10 ms, so the Lambda column is an indication only.",
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    direct.destroy();
    await recorder.close();
    await ddb.stop();
  }
}

process.exitCode = await main(process.argv.slice(2));
