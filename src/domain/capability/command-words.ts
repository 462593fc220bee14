// How a command's words read once wrappers are taken off: `sudo env FOO=1 nice -n 5 curl …` runs
// `curl`, as root. Each wrapper's options that take a value are listed, so the value is not
// mistaken for the command.

/** Wrapper → its options that take a separate value. */
const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group']),
  doas: new Set(['-u', '-C']),
  pkexec: new Set(['--user']),
  run0: new Set(['-u', '--user', '-D', '--chdir']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  xargs: new Set(['-I', '-n', '-P', '-L', '-d', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']),
  watch: new Set(['-n', '-d', '--interval']),
};

/** Wrappers that run the command as another user. */
export const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas', 'pkexec', 'run0']);

export interface UnwrappedCommand {
  /** The command's name as it would be looked up (`/usr/bin/curl` → `curl`), or "" when none. */
  name: string;
  /** The name as written (`./install.sh` stays as written). */
  written: string;
  args: string[];
  /** The wrappers taken off, outermost first. */
  wrappers: string[];
}

export function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function unwrap(words: readonly string[]): UnwrappedCommand {
  const wrappers: string[] = [];
  let rest = [...words];
  for (;;) {
    const name = baseName(rest[0] ?? '');
    const takesValue = WRAPPERS[name];
    // `command -v x` asks where x is; it runs nothing.
    if (takesValue === undefined || (name === 'command' && /^-[vV]$/.test(rest[1] ?? ''))) break;
    let index = 1;
    while (index < rest.length) {
      const word = rest[index] ?? '';
      if (word === '--') {
        index += 1;
        break;
      }
      if (name === 'env' && ASSIGNMENT.test(word)) index += 1;
      else if (word.startsWith('-') && word.length > 1) index += takesValue.has(word) ? 2 : 1;
      else break;
    }
    // timeout's first operand is the duration.
    if (name === 'timeout') index += 1;
    wrappers.push(name);
    rest = rest.slice(index);
    if (rest.length === 0) break;
  }
  return { name: baseName(rest[0] ?? ''), written: rest[0] ?? '', args: rest.slice(1), wrappers };
}
