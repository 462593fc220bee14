// The fenced `sh` blocks of lorebook's SKILL.md, in order, and a runner that executes them as
// one shell session would (variables and files carry from one block to the next), stopping at
// the first command that fails. Blocks tagged `sh device-flow` need sign-in on and a person who
// approves the code, so their tests pick them by that tag.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SKILL_FILE = new URL('../../skills/lorebook/SKILL.md', import.meta.url);

export interface SkillExample {
  /** The info string after the fence: `sh` or `sh device-flow`. */
  info: string;
  code: string;
  /** 1-based line of the opening fence in SKILL.md. */
  line: number;
}

export function skillExamples(markdown: string = readFileSync(SKILL_FILE, 'utf8')): SkillExample[] {
  const examples: SkillExample[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh\b.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && text === '```');
    if (end === -1) throw new Error(`The sh block at line ${i + 1} is never closed.`);
    examples.push({ info: (open[1] ?? '').trim(), code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return examples;
}

export interface SessionOutcome {
  exitCode: number;
  /** The fence line of the block that failed, when one did. */
  failedAt: number | undefined;
  stdout: string;
  stderr: string;
}

/**
 * The examples are shell for an agent's machine: they need `curl` and `jq` on PATH. Where either
 * is missing (a bare container), the sessions that run them are skipped, naming what is missing;
 * everything else about the skill (served, versioned, skill_update) is still tested.
 */
export const SKILL_TOOLS_MISSING = ['curl', 'jq'].filter(
  (tool) => spawnSync('bash', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0,
);

/** A scratch directory for one agent's session (the files the examples write), removed afterwards. */
export async function inSkillWorkdir<T>(run: (workdir: string) => Promise<T>): Promise<T> {
  const workdir = mkdtempSync(join(tmpdir(), 'lorebook-skill-'));
  try {
    return await run(workdir);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

/**
 * Runs the blocks in one bash with `errexit` and `pipefail`, so any command that fails — a curl
 * answered >= 400 under --fail-with-body included — ends the session with its block named.
 * `epilogue` runs after the blocks, in the same shell (e.g. to print a variable they set).
 */
export function runSkillSession(
  examples: readonly SkillExample[],
  env: Record<string, string>,
  workdir: string,
  epilogue = '',
): Promise<SessionOutcome> {
  const script = [
    'set -euo pipefail',
    `trap 'echo "@@failed-at $BLOCK_LINE" >&2' ERR`,
    ...examples.flatMap((example) => [`BLOCK_LINE=${example.line}`, example.code]),
    epilogue,
  ].join('\n');
  return new Promise<SessionOutcome>((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd: workdir, env: { PATH: process.env.PATH ?? '', HOME: workdir, ...env }, timeout: 120_000, maxBuffer: 8 << 20 },
      (error, stdout, stderr) => {
        const failed = /@@failed-at (\d+)/.exec(stderr)?.[1];
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ exitCode: code, failedAt: failed === undefined ? undefined : Number(failed), stdout, stderr });
      },
    );
  });
}
