// Rendered story bodies, remembered per process. Rendering costs milliseconds of CPU per story
// (~2 ms for a typical one, up to ~1 s for a 64 KiB body within the cost limits: npm run
// bench:pages, npm run bench) while hashing the text costs a fraction of that. The key is the
// SHA-256 of the markdown itself — not the slug and revision, which a read racing an edit could
// pair with the other revision's text — so an entry can never be stale and nothing needs
// invalidating. Bounded by entries and by bytes (each body is at most the rendered-size limit):
// least recently used out first. Rendering runs on the offload worker under the render budget
// (render-body-task.ts); concurrent views of one uncached story share one render.
import { createHash } from 'node:crypto';
import { type CpuScope, runOffloaded } from '../../app/context/offloaded.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { OffloadBudgetExceeded, type OffloadTask } from '../../offload/offload.ts';
import { degradedBody } from './degraded-body.ts';
import { RENDER_STORY_BODY_TASK } from './render-body-task.ts';
import type { StoryBodyInput } from './render-story-body.ts';

export const RENDERED_BODIES_MAX = 256;
/** 32 MiB of HTML: 16 bodies at the rendered-size limit, hundreds of ordinary ones. */
export const RENDERED_BODIES_MAX_BYTES = 32 * 1024 * 1024;

export interface RenderedBodies {
  /** The story body of this stored markdown, as HTML (render-body-task.ts rules), rendered in `scope`'s share of the workers. */
  html(markdown: string, scope?: CpuScope): Promise<string>;
  /** Bytes of HTML held (for tests and the bench). */
  readonly bytes: number;
}

export interface RenderedBodiesOptions {
  /** The public base URL, which tells lorebook's own images from other sites' (render-markdown.ts); one per cache. */
  baseUrl?: string;
  maxEntries?: number;
  maxBytes?: number;
  /** The real renderer by default; a test may wrap it to count the renders. */
  render?: (markdown: string, scope?: CpuScope) => Promise<string>;
}

/**
 * A render stopped by its budget, or whose worker died, is shown degraded, and remembered so: a
 * story that costs a full budget once must not cost it on every view. A render refused for load
 * (rate_limited: the caller's share is full) is not the story's doing: it is the answer, not remembered.
 */
export async function renderOffloaded(
  input: StoryBodyInput,
  scope?: CpuScope,
  task: OffloadTask<StoryBodyInput, string> = RENDER_STORY_BODY_TASK,
): Promise<string> {
  try {
    return await runOffloaded(scope, task, input);
  } catch (error) {
    if (isLorebookError(error)) throw error;
    const why =
      error instanceof OffloadBudgetExceeded
        ? `rendering it took longer than the render time budget (${task.budgetMs} ms).`
        : 'rendering it failed.';
    // The renderer's module, for the body without its title block; loaded on the first page.
    const { storyBodyMarkdown } = await import('./render-markdown.ts');
    return degradedBody(storyBodyMarkdown(input.markdown), why);
  }
}

const sizeOf = (html: string): number => Buffer.byteLength(html);

export function createRenderedBodies(options: RenderedBodiesOptions = {}): RenderedBodies {
  const maxEntries = options.maxEntries ?? RENDERED_BODIES_MAX;
  const maxBytes = options.maxBytes ?? RENDERED_BODIES_MAX_BYTES;
  const render = options.render ?? ((markdown: string, scope?: CpuScope) => renderOffloaded({ markdown, baseUrl: options.baseUrl }, scope));
  const entries = new Map<string, { html: string; bytes: number }>();
  const rendering = new Map<string, Promise<string>>();
  let bytes = 0;

  const remember = (key: string, html: string): void => {
    const size = sizeOf(html);
    if (size > maxBytes) return;
    entries.set(key, { html, bytes: size });
    bytes += size;
    // Map keeps insertion order: the first key is the least recently used.
    while (entries.size > maxEntries || bytes > maxBytes) {
      const [oldest, entry] = entries.entries().next().value as [string, { bytes: number }];
      entries.delete(oldest);
      bytes -= entry.bytes;
    }
  };

  return {
    get bytes() {
      return bytes;
    },
    html(markdown, scope) {
      const key = createHash('sha256').update(markdown).digest('base64');
      const cached = entries.get(key);
      if (cached !== undefined) {
        // Moving the entry to the end marks it most recently used.
        entries.delete(key);
        entries.set(key, cached);
        return Promise.resolve(cached.html);
      }
      const pending = rendering.get(key);
      if (pending !== undefined) return pending;
      const started = render(markdown, scope).then((html) => {
        remember(key, html);
        return html;
      });
      rendering.set(key, started);
      const done = (): void => void rendering.delete(key);
      started.then(done, done);
      return started;
    },
  };
}
