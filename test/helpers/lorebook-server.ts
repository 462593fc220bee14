// The real server for end-to-end tests: the hono app served by @hono/node-server on 127.0.0.1 (a
// random port) over the suite's own table, real bearer tokens, and the real MCP SDK Client over
// StreamableHTTPClientTransport. Nothing is mocked.
import type { AddressInfo } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Hono } from 'hono';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_OUTBOUND_SETTINGS, type OutboundSettings } from '../../integrations/safe-fetch/outbound-settings.ts';
import type { AppConfig, AppContext } from '../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../src/app/context/verified-tokens.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { createStorySearch, type StorySearch } from '../../src/app/search/story-search.ts';
import { DEFAULT_OAUTH_SERVER_SETTINGS, type OAuthServerSettings } from '../../src/auth/oauth/oauth-settings.ts';
import { createHttpApp } from '../../src/http/app.ts';
import type { HttpEnv } from '../../src/http/http-env.ts';
import type { SignInDeps } from '../../src/http/sign-in/sign-in-routes.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { type AppFixture, useAppFixture } from './app-fixture.ts';
import { testEndpoint } from './test-table.ts';

export interface ServerOptions {
  config?: Partial<AppConfig>;
  /** The authorization server's lifetimes and budgets, over the defaults. */
  oauthSettings?: Partial<OAuthServerSettings>;
  allowedOrigins?: string[];
  searchRefreshMs?: number;
  /** URLs per sitemap file, small to see a month split into parts (default: the protocol's 50,000). */
  sitemapMaxUrls?: number;
  /** Fetches made for strangers (design.md#admission), over the defaults and a fetch budget no test reaches. */
  outbound?: Partial<OutboundSettings>;
  /** The table's stream on, for suites that read it (test-table.ts). */
  stream?: boolean;
  /** Sign in with Bluesky on (/auth/*), e.g. against the test PDS; read when the server starts. */
  signIn?: () => Omit<SignInDeps, 'ctx' | 'baseUrl' | 'admission'>;
}

export interface LorebookServer {
  app: AppFixture;
  /** http://127.0.0.1:<port> */
  baseUrl(): string;
  search(): StorySearch;
  /** The hono app being served (its routes, or app.request for in-process calls). */
  hono(): Hono<HttpEnv>;
  /** A live token for the handle (the account is created on first use). */
  token(handle: string): Promise<{ token: string; account: string }>;
  /** A connected SDK client, with the token as Authorization header when given; closed after the suite. */
  mcp(token?: string): Promise<Client>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Another server instance over the same table (its own store client, search index and port),
   * as a second Lambda would be; stopped after the suite.
   */
  anotherInstance(): Promise<string>;
}

/** Budgets no test reaches, unless a test asks for a small one. */
// Suites mint accounts a second before they report on each other's stories: every account is
// established here (the suites that test new accounts set newAccountHours themselves).
const GENEROUS_LIMITS: Partial<AppConfig> = { rateLimitPerMinute: 1_000_000, anonymousRateLimitPerMinute: 1_000_000, newAccountHours: 0 };

export function useLorebookServer(suite: string, options: ServerOptions = {}): LorebookServer {
  const app = useAppFixture(suite, { ...GENEROUS_LIMITS, ...options.config }, { stream: options.stream === true });
  let base: string | undefined;
  let storySearch: StorySearch | undefined;
  let honoApp: Hono<HttpEnv> | undefined;
  const clients: Client[] = [];
  const storeClients: DynamoDBDocumentClient[] = [];

  const servers: ServerType[] = [];

  /** Serves a handler installed after the port is known (the app needs its base URL). */
  const listen = async (): Promise<{ baseUrl: string; install(handler: (request: Request) => Response | Promise<Response>): void }> => {
    let handler: ((request: Request) => Response | Promise<Response>) | undefined;
    const started = await new Promise<{ server: ServerType; port: number }>((resolve) => {
      const listening = serve(
        { fetch: (request) => (handler as (request: Request) => Response | Promise<Response>)(request), port: 0, hostname: '127.0.0.1' },
        (info: AddressInfo) => resolve({ server: listening, port: info.port }),
      );
    });
    servers.push(started.server);
    return { baseUrl: `http://127.0.0.1:${started.port}`, install: (next) => (handler = next) };
  };

  beforeAll(async () => {
    const instance = await listen();
    base = instance.baseUrl;
    // The port, and so the public base URL answers link to, is known only now.
    app.ctx().config.publicBaseUrl = base;
    storySearch = createStorySearch(app.ctx(), { refreshMs: options.searchRefreshMs ?? 60_000 });
    honoApp = createHttpApp({
      ctx: app.ctx(),
      search: storySearch,
      baseUrl: base,
      allowedOrigins: options.allowedOrigins ?? [],
      oauthSettings: { ...DEFAULT_OAUTH_SERVER_SETTINGS, ...options.oauthSettings },
      outbound: { ...DEFAULT_OUTBOUND_SETTINGS, fetchesPerMinute: 1_000_000, ...options.outbound },
      ...(options.sitemapMaxUrls === undefined ? {} : { sitemapMaxUrls: options.sitemapMaxUrls }),
      ...(options.signIn === undefined ? {} : { signIn: options.signIn() }),
    });
    const hono = honoApp;
    instance.install((request) => hono.fetch(request));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((other) => new Promise<void>((resolve) => other.close(() => resolve()))));
    for (const client of storeClients) client.destroy();
  });

  const baseUrl = (): string => {
    if (base === undefined) throw new Error('useLorebookServer: the server runs only inside tests and hooks.');
    return base;
  };

  return {
    app,
    baseUrl,
    search: () => storySearch as StorySearch,
    hono: () => honoApp as Hono<HttpEnv>,
    async token(handle) {
      const created = await createToken(app.ctx(), { handle, expiresInSeconds: 3600 });
      return { token: created.token, account: created.account };
    },
    async mcp(token) {
      const client = new Client({ name: 'lorebook-e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/mcp`), {
        requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      // Caches each tool's outputSchema, so every callTool answer is validated against it.
      await client.listTools();
      clients.push(client);
      return client;
    },
    fetch: (path, init) => fetch(`${baseUrl()}${path}`, init),
    async anotherInstance() {
      const instance = await listen();
      const client = createStoreClient({ endpoint: testEndpoint() });
      storeClients.push(client);
      // Its own process: its own store client and its own remembered tokens.
      const ctx: AppContext = { ...app.ctx(), store: { ...app.ctx().store, client }, verifiedTokens: new VerifiedTokens() };
      const hono = createHttpApp({
        ctx,
        search: createStorySearch(ctx),
        baseUrl: instance.baseUrl,
        allowedOrigins: options.allowedOrigins ?? [],
        ...(options.signIn === undefined ? {} : { signIn: options.signIn() }),
      });
      instance.install((request) => hono.fetch(request));
      return instance.baseUrl;
    },
  };
}

/** The structured answer of a successful tool call (fails loudly on a refusal). */
export function answerOf<T = Record<string, unknown>>(result: unknown): T {
  const call = result as CallToolResult;
  if (call.isError === true) throw new Error(`expected an answer, got a refusal: ${JSON.stringify(call.structuredContent)}`);
  return call.structuredContent as T;
}

/** The typed error of a refused tool call (fails loudly on an answer). */
export function refusalOf(result: unknown): {
  code: string;
  message: string;
  retryable: boolean;
  retry_after_ms?: number;
  details?: Record<string, unknown>;
} {
  const call = result as CallToolResult;
  if (call.isError !== true) throw new Error(`expected a refusal, got: ${JSON.stringify(call.structuredContent)}`);
  const text = call.content[0];
  const fromText = text?.type === 'text' ? JSON.parse(text.text) : undefined;
  if (JSON.stringify(fromText) !== JSON.stringify(call.structuredContent))
    throw new Error('the JSON text and structuredContent of a refusal differ');
  return call.structuredContent as ReturnType<typeof refusalOf>;
}
