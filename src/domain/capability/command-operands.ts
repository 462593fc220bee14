// What a command's words say about files: its operands and flag values, the files it writes, the
// files a downloader saves, and which deletions only touch build output.
import { baseName, type UnwrappedCommand } from './command-words.ts';
import type { ShellCommand } from './shell-command.ts';

const QUIET_TARGETS = /^(?:\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)|&?\d+|-)$/;
export const OUTPUT_REDIRECT = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** Build output and caches: deleting them loses nothing a rebuild cannot bring back. */
const BUILD_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.cache',
  '.turbo',
  '.parcel-cache',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.venv',
  'venv',
  '.gradle',
  'bin',
  'obj',
  'tmp',
  '.tmp',
  'cdk.out',
  '.vite',
  '.angular',
  'lib-cov',
  '.eslintcache',
  '.tsbuildinfo',
  'tsconfig.tsbuildinfo',
]);

export function positional(args: readonly string[]): string[] {
  return args.filter((arg) => arg === '-' || !arg.startsWith('-'));
}

/** A relative path into a build directory, or a named scratch path under /tmp. */
export function isScratchPath(target: string): boolean {
  if (/[*?$`~]|(^|\/)\.\.(\/|$)/.test(target)) return false;
  const trimmed = target.replace(/\/+$/, '');
  if (/^\/tmp\/[^/]+/.test(trimmed)) return true;
  if (trimmed.startsWith('/') || trimmed === '' || trimmed === '.') return false;
  return BUILD_DIRS.has(baseName(trimmed)) || BUILD_DIRS.has(trimmed.replace(/^\.\//, '').split('/')[0] ?? '');
}

export function flagValue(args: readonly string[], names: readonly string[], shortLetter?: string): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const next = args[index + 1];
    if (names.includes(arg) && next !== undefined) values.push(next);
    for (const name of names) if (name.startsWith('--') && arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
    // Short flags run together: `-fsSLo install.sh`.
    if (shortLetter !== undefined && /^-[a-zA-Z]+$/.test(arg) && arg.length > 2 && arg.endsWith(shortLetter) && next !== undefined)
      values.push(next);
  });
  return values;
}

function urlBaseName(url: string): string {
  return baseName(url.replace(/[?#].*$/, '').replace(/\/+$/, ''));
}

/** Files a downloader writes (`curl -o x`, `curl -O URL`, `wget URL`, `wget -O x`). */
export function downloadedFiles(command: UnwrappedCommand): string[] {
  const { name, args } = command;
  const urls = args.filter((arg) => /^(?:https?|ftp):\/\//.test(arg));
  if (name === 'curl') {
    const named = flagValue(args, ['-o', '--output'], 'o');
    const remote = args.some((arg) => arg === '-O' || arg === '--remote-name' || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(arg))
      ? urls.map(urlBaseName)
      : [];
    return [...named, ...remote].filter((file) => file !== '-');
  }
  if (name === 'wget') {
    const named = flagValue(args, ['-O', '--output-document'], 'O');
    if (named.length > 0 || args.some((arg) => /^-[a-zA-Z]*O-$/.test(arg))) return named.filter((file) => file !== '-');
    return urls.map(urlBaseName);
  }
  return [];
}

/** Files the command writes: output redirections, and the destinations of the common writers. */
export function destinations(command: ShellCommand, unwrapped: UnwrappedCommand): string[] {
  const { name, args } = unwrapped;
  const written = command.redirects.filter((redirect) => OUTPUT_REDIRECT.has(redirect.operator)).map((redirect) => redirect.target);
  const operands = positional(args);
  if (name === 'tee') written.push(...operands);
  if (['cp', 'mv', 'ln', 'install', 'rsync'].includes(name) && operands.length >= 2) written.push(operands.at(-1) ?? '');
  if ((name === 'sed' || name === 'perl') && args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place')))
    written.push(...operands.slice(1));
  if (name === 'dd') written.push(...args.filter((arg) => arg.startsWith('of=')).map((arg) => arg.slice(3)));
  if (['touch', 'mkdir', 'truncate'].includes(name)) written.push(...operands);
  written.push(...downloadedFiles(unwrapped));
  return written.filter((target) => !QUIET_TARGETS.test(target));
}
