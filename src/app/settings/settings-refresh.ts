// The runtime settings as one process sees them (design.md#settings): read from the table at most once per
// cache period, the read shared by every request that finds the values stale meanwhile, so a
// request costs no store read of its own. A failed read keeps the values read before (a settings
// read must never fail a request) and is tried again one period later, not at every request.
import { readStoredSettings } from '../../store/setting-items.ts';
import type { Store } from '../../store/store.ts';

export interface SettingsRefreshOptions {
  /** How long values read are used before the next read (at most a minute). */
  ttlMs: number;
  /** Takes the stored values (setting name -> value as the environment spells it) into the process's config. */
  apply(stored: Readonly<Record<string, string>>): void;
  log(line: string): void;
}

/** What AppContext.refreshSettings calls: resolves at once while the values are fresh, else once they are read again. */
export function settingsRefresher(store: Store, options: SettingsRefreshOptions): () => Promise<void> {
  const fresh = Promise.resolve();
  let freshUntil = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  return () => {
    if (store.now() < freshUntil) return fresh;
    reading ??= readStoredSettings(store)
      .then(
        (settings) => options.apply(Object.fromEntries(settings.map((setting) => [setting.name, setting.value]))),
        (error: unknown) =>
          options.log(
            `lorebook: the runtime settings could not be read (${(error as Error).message ?? String(error)}); the values read before stay for ${options.ttlMs / 1000} s`,
          ),
      )
      .finally(() => {
        freshUntil = store.now() + options.ttlMs;
        reading = undefined;
      });
    return reading;
  };
}
