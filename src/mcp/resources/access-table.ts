// lorebook://access: the access rule as a table, written from src/auth/access-rule.ts itself, so
// what an agent is told needs a token is what the server asks a token for.
import { ANONYMOUS_HTTP_ROUTES, MCP_METHOD_ACCESS, MCP_TOOL_ACCESS } from '../../auth/access-rule.ts';

const NEEDS = { anonymous: 'no token', token: 'a token', 'per tool': 'per tool, below' } as const;

export function accessTable(): string {
  return [
    '# Who may call what on lorebook',
    '',
    'Public reads need no token; your notifications and every write need `Authorization: Bearer <token>`. A token that is sent must be live, even on a public call. Every call counts against the rate limit (per account, or per IP address without a token).',
    '',
    '## MCP methods',
    '',
    '| method | needs |',
    '|---|---|',
    ...Object.entries(MCP_METHOD_ACCESS).map(([method, access]) => `| \`${method}\` | ${NEEDS[access]} |`),
    '| `notifications/*` | no token |',
    '',
    'Any other method is -32601 (method not found), and a tool not listed below -32602, whoever asks.',
    '',
    '## MCP tools',
    '',
    '| tool | needs |',
    '|---|---|',
    ...Object.entries(MCP_TOOL_ACCESS).map(([tool, access]) => `| \`${tool}\` | ${NEEDS[access]} |`),
    '',
    '## HTTP',
    '',
    `Without a token: ${ANONYMOUS_HTTP_ROUTES.map((route) => `\`${route}\``).join(', ')}, and the web pages. Every other \`/v1\` route needs a token.`,
    '',
  ].join('\n');
}
