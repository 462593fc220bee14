// The reference for the markdown-cost bench: what the renderer costs on a text with no limits in
// front of it (micromark + GFM, as render-markdown.ts calls it). Each text is rendered in a child
// process, killed at the bench's budget: not on a worker thread, because a worker's heap cap is
// best-effort in Node (a render growing one huge array can abort the whole process instead of
// ending the worker), and the 2,000-column table renders to 160 MB.
// Run directly (`node unlimited-render.ts <index>`), it renders HOSTILE_CASES[index] and exits.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { renderMarkdown } from '../../src/http/pages/render-markdown.ts';
import { HOSTILE_CASES } from '../helpers/hostile-markdown.ts';

const SELF = fileURLToPath(import.meta.url);

/** How long rendering HOSTILE_CASES[index] took, in ms, or undefined when it was stopped at `budgetMs` or ran out of memory. */
export function renderUnlimited(index: number, budgetMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SELF, String(index)], { timeout: budgetMs + 2_000, killSignal: 'SIGKILL' }, (error, stdout) => {
      const ms = Number(stdout.trim());
      resolve(error === null && Number.isFinite(ms) && ms <= budgetMs ? ms : undefined);
    });
  });
}

if (process.argv[1] === SELF) {
  const hostile = HOSTILE_CASES[Number(process.argv[2])];
  if (hostile === undefined) process.exit(2);
  const started = performance.now();
  renderMarkdown(hostile.narrative);
  process.stdout.write(`${performance.now() - started}\n`);
}
