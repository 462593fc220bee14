// How long a 2026-07-28 client may keep a list or read result (`ttlMs`) and whether a shared cache
// may hold it (`cacheScope`). The SDK fills both on every cacheable result of that era from these
// hints (2025-era answers never carry them). Every cacheable answer is the same for every caller —
// the lists and resources are anonymous, and a story resource is read as an anonymous caller — so
// every scope is public.
import type { CacheHint, CacheScope } from '@modelcontextprotocol/server';

/**
 * The tools, prompts, template, fixed resources and discovery change only with a deploy: an hour,
 * after which a client re-lists and picks up a new deploy without restarting.
 */
export const STABLE_PER_DEPLOY = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' } as const satisfies CacheHint;

/**
 * A story and the story feed move with their authors: a story is edited, hidden or withdrawn at
 * any time, and a hidden story must not stay readable from a cache for long. A minute, the same
 * window the rate limits count in.
 */
export const MOVES_WITH_STORIES = { ttlMs: 60 * 1000, cacheScope: 'public' } as const satisfies CacheHint;

export const CACHE_HINTS = {
  'server/discover': STABLE_PER_DEPLOY,
  'tools/list': STABLE_PER_DEPLOY,
  'prompts/list': STABLE_PER_DEPLOY,
  'resources/templates/list': STABLE_PER_DEPLOY,
  // The fixed resources; a story's read answers MOVES_WITH_STORIES on the result itself.
  'resources/read': STABLE_PER_DEPLOY,
  'resources/list': MOVES_WITH_STORIES,
} as const satisfies Record<string, { ttlMs: number; cacheScope: CacheScope }>;
