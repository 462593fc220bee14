// Snapshot storage that counts its loads (get calls), for tests of who loads a whole index and when.
import type { SearchSnapshots } from '../../src/store/search/search-snapshots.ts';

export interface CountedSnapshots {
  snapshots: SearchSnapshots;
  /** Snapshots loaded since the start or the last reset. */
  loads(): number;
  reset(): void;
}

export function countedSnapshots(inner: SearchSnapshots): CountedSnapshots {
  let loads = 0;
  return {
    snapshots: {
      ...inner,
      get: (name) => {
        loads += 1;
        return inner.get(name);
      },
    },
    loads: () => loads,
    reset: () => {
      loads = 0;
    },
  };
}
