// Commands whose subcommand decides what they do: git, package managers and container tools, and
// the credential stores' read commands.
import { INSTALLS_BARE, PACKAGE_NETWORK, VERSION_FLAGS } from './command-names.ts';
import { positional } from './command-operands.ts';
import { type Hit, hit } from './finding.ts';

export function gitHits(args: readonly string[]): Hit[] {
  const sub = positional(args)[0] ?? '';
  const rest = args.slice(args.indexOf(sub) + 1);
  if (sub === 'push') {
    const forced = rest.some(
      (arg) =>
        /^(?:-f|--force|--force-with-lease|--force-if-includes|--mirror|--delete|-d)$/.test(arg) || /^\+/.test(arg) || /^:/.test(arg),
    );
    return forced ? [hit('destructive', 'force-push'), hit('network', 'git-remote')] : [hit('network', 'git-remote')];
  }
  if (['clone', 'fetch', 'pull', 'ls-remote', 'submodule', 'remote-update'].includes(sub)) return [hit('network', 'git-remote')];
  if (sub === 'reset' && rest.includes('--hard')) return [hit('destructive', 'discards-changes')];
  if (sub === 'clean' && rest.some((arg) => /^-[a-zA-Z]*f/.test(arg) || arg === '--force')) return [hit('destructive', 'discards-changes')];
  if (sub === 'config' && rest.includes('core.hooksPath')) return [hit('persistence', 'sets-git-hooks')];
  if (
    [
      'status',
      'log',
      'diff',
      'show',
      'rev-parse',
      'blame',
      'ls-files',
      'describe',
      'grep',
      'shortlog',
      'cat-file',
      'reflog',
      'version',
      'help',
      '',
    ].includes(sub)
  )
    return [];
  if (
    (sub === 'branch' || sub === 'tag' || sub === 'remote' || sub === 'stash') &&
    positional(rest).length === 0 &&
    !rest.some((arg) => /^-[dDmM]/.test(arg))
  )
    return [];
  if (sub === 'config' && rest.some((arg) => /^--(?:get|list|get-all)$|^-l$/.test(arg))) return [];
  return [hit('file_write', 'changes-repository')];
}

export function packageHits(name: string, args: readonly string[]): Hit[] | undefined {
  const network = PACKAGE_NETWORK[name];
  if (network === undefined) return undefined;
  const sub = positional(args)[0];
  if (sub === undefined && args.some((arg) => VERSION_FLAGS.has(arg))) return [];
  const hits: Hit[] = [];
  if (
    (name === 'docker' || name === 'podman') &&
    args.some((arg) => arg === '--privileged' || /^--(?:pid|network|ipc)=host$/.test(arg) || /^\/:/.test(arg) || /^-v\/:/.test(arg))
  ) {
    hits.push(hit('privilege', 'privileged-container'));
  }
  if (
    (sub !== undefined && network.has(sub)) ||
    (sub === undefined && INSTALLS_BARE.has(name)) ||
    args.includes('-S') ||
    /^-S/.test(sub ?? '')
  )
    hits.push(hit('network', 'installs-or-fetches'));
  else if (
    ![
      'ls',
      'list',
      'ps',
      'images',
      'inspect',
      'logs',
      'version',
      'config',
      'root',
      'prefix',
      'why',
      'explain',
      'show',
      'search',
      'env',
      'doctor',
      'freeze',
      'check',
    ].includes(sub ?? '')
  ) {
    hits.push(hit('local_execution', 'runs-package-script'));
  }
  return hits;
}

export const CREDENTIAL_STORES: ReadonlyArray<(name: string, args: readonly string[]) => boolean> = [
  (name, args) =>
    name === 'security' && /^(?:find-generic-password|find-internet-password|dump-keychain|export|find-certificate)$/.test(args[0] ?? ''),
  (name, args) => name === 'secret-tool' && /^(?:lookup|search)$/.test(args[0] ?? ''),
  (name, args) => name === 'gh' && args[0] === 'auth' && args[1] === 'token',
  (name, args) => name === 'op' && (args[0] === 'read' || (args[0] === 'item' && args[1] === 'get')),
  (name, args) => name === 'pass' && (args[0] === 'show' || (args.length === 1 && !args[0]?.startsWith('-'))),
  (name, args) => name === 'aws' && args[0] === 'configure' && /^(?:get|export-credentials)$/.test(args[1] ?? ''),
  (name, args) => name === 'gpg' && args.some((arg) => /^--export-secret/.test(arg)),
];
