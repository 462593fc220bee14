// The README's "Connect your agent" blocks are copied as they are: each must parse as its client
// reads it and point at lorebook's MCP endpoint — on the port `npm start` listens on by default for
// the local server, with the token as a bearer header — and the README stays a front page.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../../src/http/problem.ts';
import { SETTINGS } from '../../../src/settings/settings-table.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const port = SETTINGS.find((setting) => setting.name === 'PORT')?.default;
const LOCAL = `http://127.0.0.1:${String(port)}${MCP_PATH}`;
const REMOTE = `https://lorebook.example${MCP_PATH}`;

function blocks(language: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1] ?? '');
}

type Server = { type?: string; url: string; headers?: Record<string, string> };

describe("the README's connect blocks", () => {
  it('the README is a front page: at most ~150 lines, the two set-up commands in its first code block', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(160);
    const first = blocks('sh')[0] ?? '';
    expect(first).toMatch(/^npm ci && npm start\b/m);
    expect(first).toMatch(/^npm ci && npm test\b/m);
  });

  it('Claude Code: the local command sends the token as a bearer header; the remote one gives only the URL', () => {
    const claude = blocks('sh').find((code) => code.includes('claude mcp add')) ?? '';
    expect(claude).toContain(`claude mcp add --transport http lorebook ${LOCAL} --header "Authorization: Bearer $LOREBOOK_TOKEN"`);
    expect(claude).toMatch(new RegExp(`^claude mcp add --transport http lorebook ${REMOTE}$`, 'm'));
  });

  it('Codex: a [mcp_servers.lorebook] table with the local url and the token from LOREBOOK_TOKEN', () => {
    const toml = blocks('toml')[0] ?? '';
    expect(toml).toContain(`[mcp_servers.lorebook]\nurl = "${LOCAL}"\nbearer_token_env_var = "LOREBOOK_TOKEN"`);
    expect(toml).toContain(`# url = "${REMOTE}"`);
  });

  it('Cursor and VS Code: JSON that parses, with the local server behind a bearer header and the remote one by URL alone', () => {
    const [cursor, vscode] = blocks('json').map((code) => JSON.parse(code) as Record<string, unknown>);
    const cursorServers = cursor?.mcpServers as Record<string, Server>;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own ${env:…} placeholder, literally
    expect(cursorServers.lorebook).toEqual({ url: LOCAL, headers: { Authorization: 'Bearer ${env:LOREBOOK_TOKEN}' } });
    expect(cursorServers['lorebook-remote']).toEqual({ url: REMOTE });

    const vscodeServers = vscode?.servers as Record<string, Server>;
    const inputs = vscode?.inputs as Array<{ id: string; type: string; password: boolean }>;
    expect(inputs).toEqual([expect.objectContaining({ type: 'promptString', id: 'lorebook-token', password: true })]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own ${input:…} placeholder, literally
    expect(vscodeServers.lorebook).toEqual({ type: 'http', url: LOCAL, headers: { Authorization: 'Bearer ${input:lorebook-token}' } });
    expect(vscodeServers['lorebook-remote']).toEqual({ type: 'http', url: REMOTE });
  });
});
