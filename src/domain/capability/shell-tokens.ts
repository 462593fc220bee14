// The fallback for shell unbash cannot parse (an unterminated quote, zsh or fish syntax, a block
// that is half output): split each line at the shell's operators and take each piece as one
// command. Quotes are not honoured, so it reads more commands than are there — a conservative
// reading: it may report what a parse would not, never the other way round on the same words.
import { SHELLS } from './command-names.ts';
import { baseName } from './command-words.ts';
import type { Redirection, ShellCommand, ShellReading } from './shell-command.ts';

const SEPARATOR = /(\$\(|<\(|>\(|\|\||&&|\||;|&|\(|\)|`|\{|\})/;
const OPENS_SUBSTITUTION = new Set(['$(', '<(', '>(', '`']);
const REDIRECT = /^\d*(>>|>|<|&>>|&>)(.*)$/;

function commandOf(piece: string, offset: number): ShellCommand | undefined {
  const tokens = piece
    .replace(/['"\\]/g, ' ')
    .split(/\s+/)
    .filter((token) => token !== '');
  const words: string[] = [];
  const redirects: Redirection[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    const redirect = REDIRECT.exec(token);
    if (redirect === null) {
      words.push(token);
      continue;
    }
    const target = redirect[2] === '' ? tokens[++index] : redirect[2];
    if (target !== undefined) redirects.push({ operator: redirect[1] ?? '>', target });
  }
  // With quotes gone, `bash -c 'curl … | sh'` reads as `bash -c curl …` then `sh`: the string's
  // own command is what follows `-c`.
  while (SHELLS.has(baseName(words[0] ?? '')) && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(words[1] ?? '')) words.splice(0, 2);
  if (words.length === 0 && redirects.length === 0) return undefined;
  return { words, redirects, substituted: [], offset, text: piece.trim(), tokenScanned: true };
}

/** Lines joined where they end in `\`, each with the offset of its first character. */
function logicalLines(source: string): Array<{ text: string; offset: number }> {
  const lines: Array<{ text: string; offset: number }> = [];
  let offset = 0;
  let pending: { text: string; offset: number } | undefined;
  for (const line of source.split('\n')) {
    const current = pending ?? { text: '', offset };
    current.text += line.endsWith('\\') ? `${line.slice(0, -1)} ` : line;
    pending = line.endsWith('\\') ? current : undefined;
    if (pending === undefined) lines.push(current);
    offset += line.length + 1;
  }
  if (pending !== undefined) lines.push(pending);
  return lines;
}

export function tokenScanShell(source: string): ShellReading {
  const commands: ShellCommand[] = [];
  const pipelines: ShellCommand[][] = [];
  for (const line of logicalLines(source)) {
    if (/^\s*#/.test(line.text)) continue;
    const parts = line.text.split(SEPARATOR);
    let pipeline: ShellCommand[] = [];
    let previous: ShellCommand | undefined;
    let substituting: ShellCommand | undefined;
    for (let index = 0; index < parts.length; index += 2) {
      const command = commandOf(parts[index] ?? '', line.offset);
      const separator = parts[index + 1];
      if (command !== undefined) {
        commands.push(command);
        substituting?.substituted.push({ word: -1, command });
        pipeline.push(command);
        previous = command;
      }
      if (separator !== undefined && OPENS_SUBSTITUTION.has(separator)) substituting = previous ?? substituting;
      if (separator !== '|') {
        if (pipeline.length > 1) pipelines.push(pipeline);
        pipeline = [];
      }
    }
    if (pipeline.length > 1) pipelines.push(pipeline);
  }
  return { commands, pipelines };
}
