// Fuzzing the edges (fast-check): arbitrary JSON arguments to every tool, arbitrary bodies,
// content types and query strings to every endpoint, arbitrary JSON-RPC bodies to /mcp. Never a
// 500, never an untyped error, and nothing written when the call is refused.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { ERROR_HTTP_STATUS } from '../../src/domain/errors.ts';
import { openApiPath } from '../../src/http/v1/route.ts';
import { V1_ROUTES } from '../../src/http/v1/routes.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-fuzz');
const CODES = new Set(Object.keys(ERROR_HTTP_STATUS));
const RUNS = 40;

const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
type Observed = Awaited<ReturnType<typeof observable>>;

/**
 * The table before a call. Most fuzzed calls are refused, and a refused call's check reads the
 * table just after it changed nothing, with no call in between: that read is the next call's
 * "before", so a refused call costs one full read instead of two. After an answered call, or a
 * failed check, the table is read afresh.
 */
let settled: Observed | undefined;
async function tableBefore(): Promise<Observed> {
  const before = settled ?? (await observable());
  settled = undefined;
  return before;
}
/** Checks that a refused call wrote nothing, and keeps that read for the next call. */
async function expectNothingWritten(before: Observed): Promise<void> {
  const after = await observable();
  expect(after).toEqual(before);
  settled = after;
}

let token: string;
let client: Client;
let ownSlug: string;
let othersSlug: string;
const markdown = storyTitled('Fuzzed story of my own');

beforeAll(async () => {
  const fuzzer = await server.token('fuzzer');
  token = fuzzer.token;
  client = await server.mcp(token);
  ownSlug = (await publishStory(server.app.ctx(), { account: fuzzer.account, handle: 'fuzzer' }, { markdown })).slug;
  othersSlug = (
    await publishStory(
      server.app.ctx(),
      { account: 'acct-other', handle: 'other' },
      { markdown: storyTitled('Fuzzed story of someone else') },
    )
  ).slug;
  await reportReproduction(server.app.ctx(), { account: 'acct-other', handle: 'other' }, { slug: ownSlug, result: 'worked' });
});

/** Every argument name any tool takes, so the fuzzer reaches past "unrecognized key". */
const KNOWN_KEYS = [...new Set(TOOLS.flatMap((tool) => Object.keys(tool.inputSchema.shape)))];

const plausibleValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(
      ownSlug,
      othersSlug,
      markdown,
      'worked',
      'failed',
      'has_problem',
      'correction',
      'rephrase',
      true,
      false,
      1,
      0,
      -1,
      // biome-ignore lint/correctness/noPrecisionLoss: a number literal past the double range (it reads as Infinity) on purpose
      1e309,
      '',
      'op-fuzz',
    ),
  );

const argumentsArb = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.string({ maxLength: 12 })), plausibleValue(), { maxKeys: 6 });

describe('every MCP tool with arbitrary arguments', () => {
  for (const tool of TOOLS) {
    it(`${tool.name}: a typed answer or a typed refusal that wrote nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(argumentsArb(), async (args) => {
          const before = await tableBefore();
          // The SDK client validates an answer against the tool's outputSchema and throws on a JSON-RPC error.
          const result = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
          if (result.isError === true) {
            const error = result.structuredContent as { code: string };
            expect(CODES.has(error.code), JSON.stringify(error)).toBe(true);
            await expectNothingWritten(before);
          } else {
            expect(result.structuredContent).toBeDefined();
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});

const CONTENT_TYPES = [
  'application/json',
  'text/markdown',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  undefined,
] as const;

const bodyArb = fc.oneof(
  argumentsArb().map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constant(markdown),
  fc.constant(''),
);

const queryArb = fc.dictionary(
  fc.oneof(fc.constantFrom('q', 'author', 'limit', 'cursor', 'slug', 'kind', 'note', 'unread_only'), fc.string({ maxLength: 8 })),
  fc.string({ maxLength: 20 }),
  { maxKeys: 3 },
);

describe('every /v1 endpoint with arbitrary bodies, content types and queries', () => {
  for (const route of V1_ROUTES) {
    it(`${route.method} ${openApiPath(route.path)}: never a 500; a refusal is a typed problem that wrote nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyArb,
          fc.constantFrom(...CONTENT_TYPES),
          queryArb,
          fc.constantFrom(ownSlug, othersSlug, 'not-a-slug', '2026-01-01-missing'),
          fc.boolean(),
          fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
          async (body, contentType, query, slug, signedIn, ifMatch) => {
            const before = await tableBefore();
            const headers: Record<string, string> = {};
            if (contentType !== undefined) headers['Content-Type'] = contentType;
            if (signedIn) headers.Authorization = `Bearer ${token}`;
            if (ifMatch !== undefined && /^[\x20-\x7e]*$/.test(ifMatch)) headers['If-Match'] = ifMatch;
            const search = new URLSearchParams(query).toString();
            const path = `${openApiPath(route.path).replace(/\{(slug|handle)\}/, encodeURIComponent(slug))}${search === '' ? '' : `?${search}`}`;
            const response = await server.fetch(path, { method: route.method, headers, ...(route.method === 'GET' ? {} : { body }) });
            expect(response.status).not.toBe(500);
            if (response.ok) return;
            expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
            const problem = (await response.json()) as { code: string; status: number };
            expect(CODES.has(problem.code), JSON.stringify(problem)).toBe(true);
            expect(problem.status).toBe(response.status);
            await expectNothingWritten(before);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});

describe('/mcp with arbitrary JSON bodies', () => {
  it('never a 500 and, without a token, never a write', async () => {
    const before = await observable();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            jsonrpc: fc.constant('2.0'),
            id: fc.oneof(fc.integer(), fc.string()),
            method: fc.constantFrom(
              'tools/call',
              'tools/list',
              'ping',
              'initialize',
              'resources/read',
              'resources/list',
              'prompts/get',
              'completion/complete',
            ),
            params: fc.jsonValue(),
          }),
          fc.record({
            jsonrpc: fc.constant('2.0'),
            id: fc.integer(),
            method: fc.constant('tools/call'),
            params: fc.record({ name: fc.constantFrom(...TOOLS.map((t) => t.name)), arguments: argumentsArb() }),
          }),
        ),
        async (message) => {
          const response = await server.fetch('/mcp', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
            body: JSON.stringify(message),
          });
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
    expect(await observable()).toEqual(before);
  });
});
