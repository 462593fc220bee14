// One instance's search index (each `npm start` process, each http Lambda container), kept
// current without ever reading the whole feed (docs/design.md#search):
// - cold start: the snapshot the pointer names, loaded at the first search off the event loop
//   (snapshot-load.ts); with no snapshot yet (a new deployment before its first snapshot job) the
//   index is built once from the feed index;
// - before a search, at most once per `refreshMs`: the change log past the watermark is read
//   (strongly consistent, with an overlap for clock skew) and applied, together with the stories
//   this process itself just wrote (`touch`), so an agent finds what it has just published;
// - an instance more than REPLAY_LIMIT_MS behind (a container thawed after a long sleep) loads
//   the newest snapshot in the background and answers from the index it has meanwhile; the loaded
//   one replaces it in one assignment, so a search sees the old index or the new, never a part.
//   When the newest is the snapshot it started from (a quiet table's is hours old), the log is all
//   there is to catch up with: it replays it rather than loading the same snapshot again.

import { SEARCH_LOG_REPLAYABLE_MS } from '../../store/search/search-log.ts';
import { readSearchPointer, type SearchPointer } from '../../store/search/search-pointer.ts';
import type { SearchSnapshots } from '../../store/search/search-snapshots.ts';
import type { AppContext } from '../context/app-context.ts';
import { applySearchLog, buildFromFeed, type LogPosition, startOfLog } from './search-index-feed.ts';
import { loadSnapshot } from './snapshot-load.ts';
import { createStoryIndex, type StoryIndex } from './story-index.ts';

/** Past this far behind, loading the newest snapshot beats replaying the log. */
export const REPLAY_LIMIT_MS = 6 * 60 * 60 * 1000;
/** Log entries one refresh applies: a long backlog is worked off over several searches. */
const MAX_REFRESH_ENTRIES = 2000;

export interface LiveIndexOptions {
  /** Where snapshots are; absent: the index is built from the feed at cold start. */
  snapshots?: SearchSnapshots | undefined;
  /** The longest a search answers without reading the log first. */
  refreshMs: number;
  now: () => number;
  log?: (line: string) => void;
}

export interface LiveIndex {
  /** The index, current to within `refreshMs` of the log and to this process's own writes. */
  current(): Promise<StoryIndex>;
  /** This process changed the story: the next search re-reads it first. */
  touch(slug: string): void;
  /** The next search loads the index again (a snapshot, or the feed), as at a cold start. */
  forget(): void;
}

interface Loaded {
  index: StoryIndex;
  position: LogPosition;
  /** The snapshot the index was loaded from; undefined when it was built from the feed. */
  snapshot?: { name: string; watermark: number };
}

export function createLiveIndex(ctx: AppContext, options: LiveIndexOptions): LiveIndex {
  const log = options.log ?? (() => {});
  let state: Loaded | undefined;
  let loading: Promise<Loaded> | undefined;
  let refreshing: Promise<void> | undefined;
  // biome-ignore lint/correctness/noUnusedVariables: read by `reloading ??=` below, so one reload runs at a time
  let reloading: Promise<void> | undefined;
  let refreshedAt = Number.NEGATIVE_INFINITY;
  const touched = new Set<string>();

  const replayable = (watermark: number): boolean => ctx.store.now() - watermark <= SEARCH_LOG_REPLAYABLE_MS;

  const load = async (pointer: SearchPointer | undefined): Promise<Loaded> => {
    const data = pointer === undefined ? undefined : await options.snapshots?.get(pointer.snapshot);
    const decoded = data === undefined ? undefined : await loadSnapshot(data);
    if (pointer !== undefined && decoded !== undefined && replayable(decoded.watermark)) {
      const { index, watermark } = decoded;
      return { index, position: startOfLog(watermark), snapshot: { name: pointer.snapshot, watermark } };
    }
    const watermark = ctx.store.now();
    const index = createStoryIndex();
    await buildFromFeed(ctx, index);
    log(`lorebook: search index built from the feed (${index.size} stories): no snapshot to load yet`);
    return { index, position: startOfLog(watermark) };
  };

  const refresh = async (loaded: Loaded): Promise<void> => {
    refreshedAt = options.now();
    // Long asleep: the newest snapshot is cheaper than the log, and past two days the log lacks
    // some changes. Until it is loaded, the log read below keeps this index answering.
    if (ctx.store.now() - loaded.position.watermark > REPLAY_LIMIT_MS) reloading ??= reloadInBackground();
    const extra = [...touched];
    touched.clear();
    try {
      const applied = await applySearchLog(ctx, loaded.index, loaded.position, { maxEntries: MAX_REFRESH_ENTRIES, extra });
      // A snapshot loaded meanwhile replaced the state: its own position stands.
      if (state === loaded) loaded.position = applied.position;
    } catch (error) {
      for (const slug of extra) touched.add(slug);
      throw error;
    }
  };

  const reloadInBackground = async (): Promise<void> => {
    try {
      const pointer = await readSearchPointer(ctx.store);
      const from = state?.snapshot;
      if (from !== undefined && pointer?.snapshot === from.name && replayable(from.watermark)) return;
      // Taken even when this index read the log further: the log is replayed onto it from its own
      // watermark at the next refresh, and unlike this index it misses nothing older than two days.
      state = await load(pointer);
    } catch (error) {
      log(`lorebook: search snapshot reload failed (${(error as Error).message ?? String(error)}); the next refresh tries again`);
    } finally {
      reloading = undefined;
    }
  };

  return {
    async current() {
      let answering = state;
      if (answering === undefined) {
        loading ??= readSearchPointer(ctx.store)
          .then(load)
          .finally(() => (loading = undefined));
        const loaded = await loading;
        state ??= loaded;
        answering = state;
      }
      // Twice at most: a write touched during a refresh in flight needs one more.
      for (let round = 0; round < 2; round += 1) {
        const due = options.now() - refreshedAt >= options.refreshMs;
        if (refreshing === undefined && !due && touched.size === 0) break;
        answering = state ?? answering;
        refreshing ??= refresh(answering).finally(() => (refreshing = undefined));
        await refreshing;
      }
      // forget() while this search waited: it answers from the index it had; the next search loads again.
      return (state ?? answering).index;
    },
    touch(slug) {
      touched.add(slug);
    },
    forget() {
      state = undefined;
    },
  };
}
