// Which reader a code block gets, by its info string. Languages that are not run (text, markdown,
// output, JSON, YAML, diffs, …) are not read: a block of them shows, it does not do.
import { KNOWN_COMMANDS } from './command-names.ts';
import type { ScriptLanguage } from './script-rules.ts';

export type BlockReader = 'shell' | 'console' | 'sql' | ScriptLanguage | 'none';

const READERS: Record<string, BlockReader> = {
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  fish: 'shell',
  shellscript: 'shell',
  console: 'console',
  'shell-session': 'console',
  shellsession: 'console',
  'sh-session': 'console',
  terminal: 'console',
  powershell: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  ps: 'powershell',
  python: 'python',
  py: 'python',
  python3: 'python',
  ipython: 'python',
  js: 'javascript',
  javascript: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsx: 'javascript',
  ts: 'javascript',
  typescript: 'javascript',
  tsx: 'javascript',
  mts: 'javascript',
  sql: 'sql',
  psql: 'sql',
  postgresql: 'sql',
  postgres: 'sql',
  mysql: 'sql',
  sqlite: 'sql',
  plsql: 'sql',
};

const PROMPT = /^\s*\$ /;

/** The first line that is not blank or a comment starts with a prompt or a known command. */
export function looksLikeCommands(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '' && !/^\s*#/.test(line));
  if (first === undefined) return false;
  if (PROMPT.test(first)) return true;
  const word = first.trim().split(/\s+/)[0] ?? '';
  return KNOWN_COMMANDS.has(word) || word.startsWith('./') || /^[A-Z_]+=\S*$/.test(word);
}

/** How a block is read: by its language, or as shell when it has none and reads as commands. */
export function readerFor(lang: string, value: string): BlockReader {
  if (lang === '') return !looksLikeCommands(value) ? 'none' : value.split('\n').some((line) => PROMPT.test(line)) ? 'console' : 'shell';
  return READERS[lang] ?? 'none';
}

/**
 * A transcript's commands: when some line starts with a `$ ` prompt, only prompted lines (and
 * their `\` continuations) are commands, the rest is output. A console block with no prompt is
 * all output; a shell block with none is all commands. Lines keep their places, so offsets still
 * give the right line.
 */
export function transcriptCommands(text: string, reader: 'shell' | 'console'): string {
  const lines = text.split('\n');
  if (reader === 'shell' && !lines.some((line) => PROMPT.test(line))) return text;
  let continued = false;
  return lines
    .map((line) => {
      const command = PROMPT.test(line) ? line.replace(PROMPT, '') : continued ? line : '';
      continued = command !== '' && command.endsWith('\\');
      return command;
    })
    .join('\n');
}
