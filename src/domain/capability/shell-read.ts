// Reads a shell block into simple commands and pipelines with unbash (a typed bash parser):
// pipelines, and-or lists, subshells, substitutions, redirections and here-documents come from
// its syntax tree, and the strings of `bash -c '…'` (and a here-document fed to a shell) are
// parsed in turn, to MAX_SHELL_DEPTH. A block unbash cannot parse is token-scanned instead.
import { type Assignment, type Command, forEachChild, parse, type SyntaxNode, type Word } from 'unbash';
import { SHELLS } from './command-names.ts';
import { unwrap } from './command-words.ts';
import { MAX_SHELL_DEPTH } from './scan-limits.ts';
import type { Redirection, ShellCommand, ShellReading } from './shell-command.ts';
import { tokenScanShell } from './shell-tokens.ts';

type ParsedScript = ReturnType<typeof parse>;

function descendants(root: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  const stack: SyntaxNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    visit(node);
    forEachChild(node, (child) => stack.push(child));
  }
}

function tryParse(source: string): ParsedScript | undefined {
  try {
    const script = parse(source);
    return script.errors === undefined || script.errors.length === 0 ? script : undefined;
  } catch {
    return undefined;
  }
}

/** The string a shell is told to run: the operand after `-c` (also in `-ec`, `-lc`). */
function commandString(command: ShellCommand): string | undefined {
  const { name, args } = unwrap(command.words);
  if (!SHELLS.has(name)) return undefined;
  const flag = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg));
  return flag === -1 ? undefined : args[flag + 1];
}

/** A here-document fed to a shell that has no script file: the shell runs its text. */
function hereDocScript(command: ShellCommand, hereDoc: string | undefined): string | undefined {
  if (hereDoc === undefined) return undefined;
  const { name, args } = unwrap(command.words);
  return SHELLS.has(name) && !args.some((arg) => !arg.startsWith('-')) ? hereDoc : undefined;
}

class Reader {
  readonly commands: ShellCommand[] = [];
  readonly pipelines: ShellCommand[][] = [];
  private readonly built = new Map<Command, ShellCommand>();

  read(source: string, depth: number, at: number | undefined): void {
    const script = depth > MAX_SHELL_DEPTH ? undefined : tryParse(source);
    if (script === undefined) {
      const scanned = tokenScanShell(source);
      const place = (command: ShellCommand): void => {
        if (at !== undefined) command.offset = at;
      };
      scanned.commands.forEach(place);
      this.commands.push(...scanned.commands);
      this.pipelines.push(...scanned.pipelines);
      return;
    }
    const nested: Array<{ source: string; at: number }> = [];
    descendants(script, (node) => {
      if (node.type === 'Pipeline') {
        this.pipelines.push(
          node.commands.filter((member): member is Command => member.type === 'Command').map((member) => this.command(member, source, at)),
        );
      } else if (node.type === 'Command') {
        const command = this.command(node, source, at);
        this.commands.push(command);
        const hereDoc = node.redirects.find((redirect) => redirect.type === 'HereDoc');
        const inner = commandString(command) ?? hereDocScript(command, hereDoc?.type === 'HereDoc' ? hereDoc.body.text : undefined);
        if (inner !== undefined) nested.push({ source: inner, at: command.offset });
      }
    });
    for (const string of nested) this.read(string.source, depth + 1, string.at);
  }

  /** One ShellCommand per syntax node, so a pipeline and the command list share it. */
  private command(node: Command, source: string, at: number | undefined): ShellCommand {
    const known = this.built.get(node);
    if (known !== undefined) return known;
    // Assignments after the name are operands too (`export X=1`, `make CC=gcc`); only their text is kept.
    const words: Array<Word | Assignment> = [];
    if (node.name !== undefined) words.push(node.name);
    for (const arg of node.suffix) if (arg.type === 'Word' || arg.type === 'Assignment') words.push(arg);
    const redirects: Redirection[] = [];
    for (const redirect of node.redirects) {
      if (redirect.type === 'Redirect' && redirect.target !== undefined)
        redirects.push({ operator: redirect.operator, target: redirect.target.value });
    }
    const command: ShellCommand = {
      words: words.map((word) => (word.type === 'Word' ? word.value : word.text)),
      redirects,
      substituted: [],
      offset: at ?? node.pos,
      text: source.slice(node.pos, node.end),
      tokenScanned: false,
    };
    this.built.set(node, command);
    words.forEach((word, index) => {
      descendants(word, (inner) => {
        if (inner.type === 'Command') command.substituted.push({ word: index, command: this.command(inner, source, at) });
      });
    });
    return command;
  }
}

/** Every command of a shell block; offsets are in `source`. */
export function readShell(source: string): ShellReading {
  const reader = new Reader();
  reader.read(source, 0, undefined);
  const commands = [...new Set(reader.commands)].sort((a, b) => a.offset - b.offset);
  return { commands, pipelines: reader.pipelines };
}
