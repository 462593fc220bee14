// The AppContext, built once per process (or per Lambda cold start) from the config. The Bluesky
// announcer is built apart (announcer-from-config.ts), so a process that never announces (the
// http function) does not load the Bluesky client.
import { join } from 'node:path';
import type { AppContext } from './app/context/app-context.ts';
import { VerifiedTokens } from './app/context/verified-tokens.ts';
import { settingsRefresher } from './app/settings/settings-refresh.ts';
import type { Config } from './config.ts';
import { consoleLog } from './log-sink.ts';
import { createCpuSlots } from './offload/cpu-slots.ts';
import type { Announcer } from './outbox/announce/announcer.ts';
import { type AnnounceSoon, announceSoonWith } from './outbox/announce/soon.ts';
import { withStoredSettings } from './settings/runtime-settings.ts';
import { createStoreClient } from './store/client.ts';
import type { ImageBlobs } from './store/image/blobs.ts';
import { imageBlobsInDirectory } from './store/image/blobs-dir.ts';
import { imageBlobsInS3 } from './store/image/blobs-s3.ts';
import type { SearchSnapshots } from './store/search/search-snapshots.ts';
import { searchSnapshotsInDirectory } from './store/search/search-snapshots-dir.ts';
import { searchSnapshotsInS3 } from './store/search/search-snapshots-s3.ts';

export function buildContext(
  config: Config,
  endpoint = config.ddbEndpoint,
  announcer?: Announcer,
): AppContext & { announcing?: AnnounceSoon } {
  const client = createStoreClient({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(config.region === undefined ? {} : { region: config.region }),
  });
  const store = { client, tableName: config.tableName, now: Date.now };
  // A copy: the runtime settings are taken into it in place, so every request's context (a copy of
  // this one) sees them, while the environment's values stay the defaults.
  const app = { ...config.app };
  const ctx: AppContext & { announcing?: AnnounceSoon } = {
    store,
    config: app,
    images: imageBlobsFor(config),
    searchSnapshots: searchSnapshotsFor(config),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    verifiedTokens: new VerifiedTokens(),
    cpu: createCpuSlots(config.cpu),
    refreshSettings: settingsRefresher(store, {
      ttlMs: config.settingsCacheMs,
      apply: (stored) => Object.assign(app, withStoredSettings(config.app, stored, consoleLog)),
      log: consoleLog,
    }),
  };
  if (announcer !== undefined) {
    const announcing = announceSoonWith(ctx, announcer);
    ctx.announcing = announcing;
    ctx.announceSoon = announcing.soon;
  }
  return ctx;
}

/** The image store the configuration names: S3 when a bucket is set (Lambda), else the local directory. */
function imageBlobsFor(config: Config): ImageBlobs {
  if ('bucket' in config.images) {
    const { bucket, endpoint } = config.images;
    return imageBlobsInS3({
      bucket,
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(config.region === undefined ? {} : { region: config.region }),
    });
  }
  return imageBlobsInDirectory(config.images.directory);
}

/** The search snapshot store the configuration names: S3 when a bucket is set (Lambda), else the local directory. */
function searchSnapshotsFor(config: Config): SearchSnapshots {
  if ('bucket' in config.search) {
    const { bucket, endpoint } = config.search;
    return searchSnapshotsInS3({
      bucket,
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(config.region === undefined ? {} : { region: config.region }),
    });
  }
  // One directory per table: two local tables (a test's, `npm start`'s) never prune each other's snapshots.
  return searchSnapshotsInDirectory(join(config.search.directory, config.tableName));
}
