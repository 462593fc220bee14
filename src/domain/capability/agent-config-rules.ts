// Steps that change an agent's own configuration: a skill, an MCP server, a hook, the instruction
// files it reads at every session. Writing them is `agent_config`; reading them (`cat CLAUDE.md`)
// is not a finding.
import { positional } from './command-operands.ts';
import { type Hit, hit } from './finding.ts';
import { HOME } from './path-rules.ts';

const CONFIG_PATHS: readonly RegExp[] = [
  // An agent's home settings, skills, hooks and memory: read at every session it starts.
  new RegExp(String.raw`${HOME}/\.(?:claude|codex|cursor|gemini|continue|codeium|windsurf|aider)(?:/|\.json$|$)`),
  new RegExp(String.raw`${HOME}/\.config/(?:opencode|goose|amp|github-copilot)/`),
  /claude_desktop_config\.json$/,
  // A project's agent settings: hooks and permissions, skills, subagents, commands, MCP servers.
  /(?:^|\/)\.(?:claude|codex|gemini|cursor\/rules|roo|clinerules|kiro)(?:\/|$)/,
  /(?:^|\/)(?:\.mcp|\.cursor\/mcp|\.vscode\/mcp|mcp_config|opencode)\.json$/,
  // Instruction files an agent reads as its own rules.
  /(?:^|\/)(?:AGENTS|CLAUDE|CLAUDE\.local|GEMINI)\.md$/,
  /(?:^|\/)\.github\/(?:copilot-instructions\.md$|instructions\/|prompts\/|agents\/)/,
  /(?:^|\/)\.(?:cursorrules|windsurfrules)$/,
];

export function isAgentConfigPath(word: string): boolean {
  return CONFIG_PATHS.some((pattern) => pattern.test(word));
}

/** Agent CLIs and the subcommands that add to their configuration. */
const CONFIG_SUBCOMMANDS: Readonly<Record<string, RegExp>> = {
  claude: /^(?:mcp (?:add|add-json|add-from-claude-desktop|remove)|plugins? (?:install|add|enable|marketplace)|config (?:set|add))\b/,
  codex: /^(?:mcp (?:add|remove)|features enable)\b/,
  gemini: /^(?:mcp (?:add|remove)|extensions? (?:install|link|enable|update))\b/,
  amp: /^mcp (?:add|remove)\b/,
  opencode: /^mcp (?:add|remove)\b/,
  qwen: /^mcp (?:add|remove)\b/,
  'cursor-agent': /^mcp (?:add|remove|enable)\b/,
};

/** Packages run by npx and the like that install skills or MCP servers into an agent. */
const INSTALLER_PACKAGES = /^(?:skills|@smithery\/cli|install-mcp|add-mcp|mcp-get|@michaellatman\/mcp-get)(?:@\S*)?$/;
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx']);

/** `claude mcp add …`, `npx skills add …`, `code --add-mcp …`, `git clone URL ~/.claude/skills/x`. */
export function agentConfigCommandHits(name: string, args: readonly string[]): Hit[] {
  const operands = positional(args);
  const sub = operands.slice(0, 2).join(' ');
  const pattern = CONFIG_SUBCOMMANDS[name];
  if (pattern?.test(sub)) return [hit('agent_config', 'adds-agent-config')];
  const runner = PACKAGE_RUNNERS.has(name) || ((name === 'pnpm' || name === 'yarn') && operands[0] === 'dlx');
  const program = name === 'pnpm' || name === 'yarn' ? operands[1] : operands[0];
  if (runner && INSTALLER_PACKAGES.test(program ?? '')) return [hit('agent_config', 'installs-skill-or-server')];
  if (/^(?:code|code-insiders|cursor)$/.test(name) && args.some((arg) => arg.startsWith('--add-mcp')))
    return [hit('agent_config', 'adds-agent-config')];
  if (name === 'git' && operands[0] === 'clone' && isAgentConfigPath(operands[2] ?? ''))
    return [hit('agent_config', 'writes-agent-config')];
  return [];
}

/** A file written by the step that an agent reads as its configuration. */
export function agentConfigWriteHits(written: readonly string[]): Hit[] {
  return written.some(isAgentConfigPath) ? [hit('agent_config', 'writes-agent-config')] : [];
}

// In prose: a verb that writes and the place it writes to, in the same sentence. "Read CLAUDE.md"
// and "see .claude/settings.json" name the file without changing it.
const WRITE_VERB =
  /\b(?:copy|copies|cp|install|add|put|place|move|mv|symlink|link|ln|save|write|append|paste|drop|register|create|edit|update|replace|unzip|extract|clone)\b/i;
const NAMED_INSTALL =
  /\b(?:install|add|register|enable|configure)\b[^.!?\n]{0,60}?\b(?:MCP servers?|agent skills?|skills?|subagents?|slash commands?)\b(?![-\w])/i;
const PATH_WORD = /[^\s`'"()<>[\],;]+/g;

/** One sentence of a step in prose: `copy skills/foo into ~/.claude/skills/`, "install the lorebook skill". */
export function agentConfigProseHits(sentence: string): Hit[] {
  if (!WRITE_VERB.test(sentence)) return [];
  const names = sentence.match(PATH_WORD) ?? [];
  if (names.some((word) => isAgentConfigPath(word.replace(/[.:!?]+$/, '')))) return [hit('agent_config', 'names-agent-config')];
  return NAMED_INSTALL.test(sentence) ? [hit('agent_config', 'names-agent-config')] : [];
}
