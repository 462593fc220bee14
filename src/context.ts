// The AppContext, built once per process (or per Lambda cold start) from the config. The Bluesky
// announcer is built apart (announcer-from-config.ts), so a process that never announces (the
// http function) does not load the Bluesky client.
import type { AppContext } from './app/app-context.ts';
import type { Config } from './config.ts';
import { announceSoonWith, type AnnounceSoon } from './outbox/announce-soon.ts';
import type { Announcer } from './outbox/announcer.ts';
import { createStoreClient } from './store/client.ts';

export function buildContext(
  config: Config,
  endpoint = config.ddbEndpoint,
  announcer?: Announcer,
): AppContext & { announcing?: AnnounceSoon } {
  const client = createStoreClient({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(config.region === undefined ? {} : { region: config.region }),
  });
  const ctx: AppContext & { announcing?: AnnounceSoon } = {
    store: { client, tableName: config.tableName, now: Date.now },
    config: config.app,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
  if (announcer !== undefined) {
    const announcing = announceSoonWith(ctx, announcer);
    ctx.announcing = announcing;
    ctx.announceSoon = announcing.soon;
  }
  return ctx;
}
