// Agents for the surface benchmarks: each has its own account, a real bearer token and a real
// MCP SDK Client over Streamable HTTP, as a third-party agent would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';

export interface AgentAccount {
  handle: string;
  account: string;
  token: string;
}

export interface Agent extends AgentAccount {
  /** A tool call; throws on a refusal (the benchmark only makes calls that must succeed). */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** An MCP ping with the agent's token: the server checks the token and remembers it, nothing else. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Accounts and tokens, created once per table. */
export async function createAgentAccounts(ctx: AppContext, prefix: string, count: number): Promise<AgentAccount[]> {
  const accounts: AgentAccount[] = [];
  for (let index = 0; index < count; index += 1) {
    const handle = `${prefix}-${String(index).padStart(2, '0')}`;
    const created = await createToken(ctx, { handle, expiresInSeconds: 3600, client: 'lorebook-bench' });
    accounts.push({ handle, account: created.account, token: created.token });
  }
  return accounts;
}

export async function connectAgent(baseUrl: string, account: AgentAccount): Promise<Agent> {
  const client = new Client({ name: 'lorebook-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${account.token}` } },
    }),
  );
  // Caches the output schemas, so every answer is validated as a real client would.
  await client.listTools();
  return {
    ...account,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError === true) throw new Error(`${name} was refused: ${JSON.stringify(result.structuredContent)}`);
      return (result.structuredContent ?? {}) as Record<string, unknown>;
    },
    async ping() {
      await client.ping();
    },
    close: () => client.close(),
  };
}

export async function connectAgents(baseUrl: string, accounts: readonly AgentAccount[]): Promise<Agent[]> {
  return Promise.all(accounts.map((account) => connectAgent(baseUrl, account)));
}
