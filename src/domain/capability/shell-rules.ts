// What each command of a shell block does, by its name, subcommand and words (docs/capability.md
// lists every rule and its near-misses). Commands that only look (ls, cat, grep, git status) are
// not findings; a command no rule knows is local execution.

import { agentConfigCommandHits, agentConfigWriteHits } from './agent-config-rules.ts';
import {
  DOWNLOADERS,
  decodes,
  EVALUATORS,
  FILE_WRITERS,
  INTERPRETERS,
  NETWORK_COMMANDS,
  PACKAGE_NETWORK,
  READ_ONLY,
  SHELLS,
  SOCKET_COMMANDS,
  VERSION_FLAGS,
} from './command-names.ts';
import { destinations, downloadedFiles, flagValue, isScratchPath, OUTPUT_REDIRECT, positional } from './command-operands.ts';
import { baseName, PRIVILEGE_WRAPPERS, type UnwrappedCommand, unwrap } from './command-words.ts';
import { type Hit, hit } from './finding.ts';
import { expandsTokenVariable, isDotEnv, isPersistencePath, isSecretPath, isTokenVariableName } from './path-rules.ts';
import type { ShellCommand } from './shell-command.ts';
import { sqlHits } from './sql-rules.ts';
import { CREDENTIAL_STORES, gitHits, packageHits } from './subcommand-rules.ts';

/** What the text's earlier commands left behind, by file name (the blocks of one scanned text share it, in order). */
export interface BlockState {
  /** Files fetched from a URL (`curl -o x`, `wget URL`): running one is running remote code. */
  downloaded: Set<string>;
  /** Files the steps wrote themselves: uploading one sends nothing the reader had before. */
  written: Set<string>;
}

/** True when the command runs the program it reads on stdin (`sh`, `bash -s`, `python3 -`). */
function readsStdinAsScript(command: UnwrappedCommand): boolean {
  const { name, args } = command;
  if (SHELLS.has(name)) {
    if (args.some((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg))) return false;
    const operands = positional(args);
    return args.includes('-s') || operands.length === 0 || operands[0] === '-' || operands[0] === '/dev/stdin';
  }
  if (INTERPRETERS.has(name)) {
    if (args.some((arg) => /^(?:-[cemprE]|--eval|--print|-Command|-File)$/i.test(arg))) return false;
    const operands = positional(args);
    return operands.length === 0 || operands[0] === '-' || operands[0] === '/dev/stdin';
  }
  return (name === 'source' || name === '.') && ['-', '/dev/stdin'].includes(args[0] ?? '');
}

/** Index in the command's words of the operand a shell or interpreter runs as its program. */
function programWordIndexes(command: ShellCommand, unwrapped: UnwrappedCommand): Set<number> {
  const shift = command.words.length - unwrapped.args.length - 1;
  const indexes = new Set<number>([shift]);
  const { name, args } = unwrapped;
  if (EVALUATORS.has(name))
    args.forEach((_, index) => {
      indexes.add(shift + 1 + index);
    });
  if (SHELLS.has(name) || INTERPRETERS.has(name)) {
    const flag = args.findIndex((arg) => /^-[a-zA-Z]*[ce][a-zA-Z]*$|^--eval$|^-Command$/i.test(arg));
    if (flag !== -1) indexes.add(shift + 2 + flag);
    const script = args.findIndex((arg) => !arg.startsWith('-') || arg === '-');
    if (script !== -1 && flag === -1) indexes.add(shift + 1 + script);
  }
  return indexes;
}

/** `bash <(curl …)`, `eval "$(curl …)"`, `sh -c "$(wget -O- …)"`, `$(curl …)`: downloaded or decoded text run as code. */
function substitutionHits(command: ShellCommand, unwrapped: UnwrappedCommand): Hit[] {
  const runsCode =
    EVALUATORS.has(unwrapped.name) ||
    SHELLS.has(unwrapped.name) ||
    INTERPRETERS.has(unwrapped.name) ||
    /^(?:\$\(|`)/.test(unwrapped.written);
  if (!runsCode) return [];
  const programs = programWordIndexes(command, unwrapped);
  const inProgram = command.substituted
    .filter(({ word }) => word === -1 || programs.has(word))
    .map(({ command: inner }) => unwrap(inner.words));
  const hits: Hit[] = [];
  if (inProgram.some((inner) => DOWNLOADERS.has(inner.name))) hits.push(hit('remote_execution', 'runs-downloaded-code'));
  if (inProgram.some((inner) => decodes(inner.name, inner.args))) hits.push(hit('obfuscation', 'runs-decoded-text'));
  return hits;
}

function pathHits(command: ShellCommand, unwrapped: UnwrappedCommand, written: readonly string[]): Hit[] {
  const hits: Hit[] = [];
  const words = [...unwrapped.args, ...command.redirects.map((redirect) => redirect.target)];
  if (words.some(isSecretPath)) hits.push(hit('secrets', 'touches-credentials'));
  if (words.some((word) => isDotEnv(word) && !written.includes(word))) hits.push(hit('secrets', 'reads-dotenv'));
  if (written.some(isPersistencePath)) hits.push(hit('persistence', 'writes-startup-file'));
  hits.push(...agentConfigWriteHits(written));
  if (written.some((target) => /^\/dev\/(?:sd|nvme|disk|hd|xvd|mmcblk)/.test(target))) hits.push(hit('destructive', 'writes-device'));
  return hits;
}

/** curl and wget sending local files, command output or secrets. */
function uploadHits(command: ShellCommand, unwrapped: UnwrappedCommand, state: BlockState): Hit[] {
  const { name, args } = unwrapped;
  if (name !== 'curl' && name !== 'wget') return [];
  const data =
    name === 'curl'
      ? flagValue(args, [
          '-d',
          '--data',
          '--data-binary',
          '--data-ascii',
          '--data-urlencode',
          '-F',
          '--form',
          '--json',
          '-T',
          '--upload-file',
        ])
      : flagValue(args, ['--post-file', '--body-file', '--post-data', '--body-data']);
  const files = [
    ...data.flatMap(
      (value) =>
        /^@(.+)$|=@([^;]+)|^<(.+)$|=<([^;]+)/
          .exec(value)
          ?.slice(1)
          .filter((file) => file !== undefined) ?? [],
    ),
    ...(name === 'curl' ? flagValue(args, ['-T', '--upload-file']) : flagValue(args, ['--post-file', '--body-file'])),
  ].filter((file) => file !== '-' && file !== '.' && !state.written.has(baseName(file)));
  const hits: Hit[] = [];
  if (files.length > 0) hits.push(hit('exfiltration', 'uploads-local-file'));
  // Command output posted is exfiltration when the command reads secrets (`-d "$(cat ~/.ssh/id_rsa)"`), not for any `$(jq …)`.
  const scratch: BlockState = { downloaded: new Set(), written: new Set() };
  const postsSecretOutput =
    data.some((value) => /\$\(|`/.test(value)) &&
    command.substituted.some(({ command: inner }) => commandHits(inner, scratch).some((found) => found.category === 'secrets'));
  if (postsSecretOutput || data.some(expandsTokenVariable)) hits.push(hit('exfiltration', 'posts-secret-or-output'));
  if (args.some((arg) => /^[a-z]+:\/\//.test(arg) && expandsTokenVariable(arg))) hits.push(hit('exfiltration', 'sends-secret-in-url'));
  return hits;
}

/** The command's own capability, by its name; `undefined` for a name no rule knows. */
function nameHits(command: ShellCommand, unwrapped: UnwrappedCommand, state: BlockState): Hit[] | undefined {
  const { name, args, written } = unwrapped;
  if (CREDENTIAL_STORES.some((reads) => reads(name, args))) return [hit('secrets', 'reads-credential-store')];
  if (INTERPRETERS.has(name) && args[0] === '-m' && args[1] !== undefined && PACKAGE_NETWORK[args[1]] !== undefined)
    return packageHits(args[1], args.slice(2));
  const packaged = packageHits(name, args);
  if (packaged !== undefined) return packaged;
  if (DOWNLOADERS.has(name)) return [hit('network', 'calls-url'), ...uploadHits(command, unwrapped, state)];
  if (SOCKET_COMMANDS.has(name)) {
    const probe = args.some((arg) => /^-[a-zA-Z]*z/.test(arg)) || args.some((arg) => /^(?:localhost|127\.0\.0\.1|::1)$/.test(arg));
    return [probe ? hit('network', 'probes-port') : hit('exfiltration', 'raw-socket')];
  }
  if (name === 'scp' || name === 'rsync' || name === 'sftp') {
    const operands = positional(args);
    const remote = (word: string): boolean => /^(?:[\w.-]+@)?[\w.-]+:(?!\/\/)/.test(word) || word.startsWith('rsync://');
    if (operands.length >= 2 && remote(operands.at(-1) ?? '') && !operands.slice(0, -1).every(remote))
      return [hit('exfiltration', 'copies-files-to-host')];
    if (operands.some(remote)) return [hit('network', 'copies-from-host')];
    return [hit('file_write', 'writes-files')];
  }
  if (name === 'git') return gitHits(args);
  if (NETWORK_COMMANDS.has(name)) return [hit('network', 'reaches-host')];
  if (name === 'crontab') return args.includes('-l') ? [] : [hit('persistence', 'edits-crontab')];
  if (name === 'systemctl' || name === 'launchctl' || name === 'service') {
    const sub = positional(args)[0] ?? '';
    if (/^(?:enable|reenable|link|preset|set-default|edit|add-wants|load|bootstrap|submit)$/.test(sub))
      return [hit('persistence', 'enables-service')];
    if (/^(?:status|is-active|is-enabled|list|list-units|list-unit-files|cat|show|print|--version)$/.test(sub)) return [];
    return [hit('local_execution', 'controls-service')];
  }
  if (name === 'schtasks') return args.some((arg) => /^[/-]create$/i.test(arg)) ? [hit('persistence', 'schedules-task')] : [];
  if (name === 'rm' || name === 'rmdir' || name === 'unlink') {
    const recursive = args.some((arg) => /^-[a-zA-Z]*[rR]/.test(arg) || arg === '--recursive');
    const targets = positional(args);
    if (recursive && (targets.length === 0 || !targets.every(isScratchPath))) return [hit('destructive', 'deletes-recursively')];
    return [hit('file_write', 'deletes-files')];
  }
  if (name === 'dd') {
    const target = args.find((arg) => arg.startsWith('of='))?.slice(3);
    if (target === undefined) return [hit('local_execution', 'runs-command')];
    return target === '/dev/null' || isScratchPath(target) || !/^[/~$]/.test(target)
      ? [hit('file_write', 'writes-files')]
      : [hit('destructive', 'overwrites-disk')];
  }
  if (
    /^(?:mkfs(?:\..+)?|fdisk|sfdisk|gdisk|parted|wipefs|shred|mkswap|format)$/.test(name) ||
    (name === 'diskutil' && /^(?:erase|zero|partition|secureErase)/i.test(args[0] ?? ''))
  ) {
    return [hit('destructive', 'wipes-disk')];
  }
  if (name === 'chmod') {
    const mode = positional(args)[0] ?? '';
    return /[ugoa]*[+=][rwxXt]*s|^[2467]\d{3}$/.test(mode) ? [hit('privilege', 'sets-setuid')] : [hit('file_write', 'writes-files')];
  }
  if (name === 'chown' || name === 'chgrp')
    return /^(?:root|0|wheel)(?:[:.]|$)/.test(positional(args)[0] ?? '')
      ? [hit('privilege', 'gives-to-root')]
      : [hit('file_write', 'writes-files')];
  if (/^(?:setcap|visudo|passwd|chpasswd|useradd|adduser|su)$/.test(name)) return [hit('privilege', 'changes-privileges')];
  if ((name === 'usermod' || name === 'gpasswd') && args.some((arg) => /\b(?:sudo|wheel|admin|root|docker)\b/.test(arg)))
    return [hit('privilege', 'changes-privileges')];
  if (name === 'printenv') {
    if (args.length === 0) return [hit('secrets', 'dumps-environment')];
    return args.some(isTokenVariableName) ? [hit('secrets', 'prints-token')] : [];
  }
  if (name === '' && unwrapped.wrappers.at(-1) === 'env') return [hit('secrets', 'dumps-environment')];
  if ((name === 'set' || name === 'export' || name === 'declare') && (args.length === 0 || args.every((arg) => arg === '-p')))
    return [hit('secrets', 'dumps-environment')];
  if ((name === 'echo' || name === 'printf') && command.words.some(expandsTokenVariable)) return [hit('secrets', 'prints-token')];
  if (/^(?:psql|mysql|mariadb|sqlite3|duckdb|clickhouse-client|sqlcmd)$/.test(name))
    return [hit('local_execution', 'runs-sql'), ...sqlHits(args.join(' '))];
  if (name === 'find') return findHits(command, args, state);
  if ((name === 'sed' || name === 'perl') && args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place')))
    return [hit('file_write', 'edits-files-in-place')];
  if (FILE_WRITERS.has(name)) return [hit('file_write', 'writes-files')];
  if (READ_ONLY.has(name)) return [];
  if ((SHELLS.has(name) || INTERPRETERS.has(name)) && args.length === 1 && VERSION_FLAGS.has(args[0] ?? '')) return [];
  if (VERSION_FLAGS.has(args[0] ?? '') && args.length === 1) return [];
  if (name === '' && written === '') return [];
  return undefined;
}

/** `find -delete` writes; `find -exec cmd {} ;` runs cmd on each file: its own rules apply. */
function findHits(command: ShellCommand, args: readonly string[], state: BlockState): Hit[] {
  const hits: Hit[] = [];
  if (args.includes('-delete')) hits.push(hit('file_write', 'deletes-files'));
  args.forEach((arg, index) => {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(arg)) return;
    const end = args.findIndex((word, at) => at > index && (word === ';' || word === '+' || word === '\\;'));
    const words = args.slice(index + 1, end === -1 ? undefined : end);
    hits.push(...commandHits({ ...command, words, redirects: [], substituted: [] }, state));
  });
  return hits;
}

/** Everything one command does; records what it downloads and writes in `state` for the next. */
export function commandHits(command: ShellCommand, state: BlockState): Hit[] {
  const unwrapped = unwrap(command.words);
  const written = destinations(command, unwrapped);
  const hits: Hit[] = [];
  if (unwrapped.wrappers.some((wrapper) => PRIVILEGE_WRAPPERS.has(wrapper))) hits.push(hit('privilege', 'runs-as-root'));
  hits.push(...substitutionHits(command, unwrapped));
  const program =
    SHELLS.has(unwrapped.name) || INTERPRETERS.has(unwrapped.name) || EVALUATORS.has(unwrapped.name)
      ? positional(unwrapped.args)[0]
      : unwrapped.written;
  if (program !== undefined && state.downloaded.has(baseName(program))) hits.push(hit('remote_execution', 'runs-downloaded-file'));
  const named = nameHits(command, unwrapped, state);
  hits.push(...(named ?? [hit('local_execution', 'runs-command')]));
  hits.push(...agentConfigCommandHits(unwrapped.name, unwrapped.args));
  hits.push(...pathHits(command, unwrapped, written));
  if (written.length > 0 && !hits.some((found) => found.category === 'file_write')) hits.push(hit('file_write', 'writes-files'));
  for (const file of downloadedFiles(unwrapped)) state.downloaded.add(baseName(file));
  if (DOWNLOADERS.has(unwrapped.name)) {
    for (const redirect of command.redirects) if (OUTPUT_REDIRECT.has(redirect.operator)) state.downloaded.add(baseName(redirect.target));
  }
  for (const file of written) state.written.add(baseName(file));
  return hits;
}

/** `curl … | sh`, `echo … | base64 -d | bash`, `printenv | nc host 9000`: what flows through a pipe. */
export function pipelineHits(members: readonly ShellCommand[]): Hit[] {
  const hits = new Map<string, Hit>();
  const add = (found: Hit): void => {
    hits.set(found.rule, found);
  };
  // What has flowed into the pipe so far, kept as it goes: one pass, however long the pipeline.
  let downloaded = false;
  let decoded = false;
  let secret = false;
  for (const member of members) {
    const unwrapped = unwrap(member.words);
    if (readsStdinAsScript(unwrapped)) {
      if (downloaded) add(hit('remote_execution', 'download-piped-to-shell'));
      if (decoded) add(hit('obfuscation', 'decoded-piped-to-shell'));
    }
    const { name, args } = unwrapped;
    const sendsStdin =
      SOCKET_COMMANDS.has(name) ||
      (name === 'curl' && args.some((arg) => /^@-$|^-$/.test(arg) || /=@-$/.test(arg))) ||
      (name === 'wget' && args.some((arg) => /^--(?:post|body)-file=?(?:\/dev\/stdin|-)?$/.test(arg)));
    if (sendsStdin && secret) add(hit('exfiltration', 'pipes-secrets-to-host'));
    downloaded ||= DOWNLOADERS.has(name);
    decoded ||= decodes(name, args);
    secret ||= commandHits(member, { downloaded: new Set(), written: new Set() }).some((found) => found.category === 'secrets');
  }
  return [...hits.values()];
}
