// The AppContext, built once per process (or per Lambda cold start) from the config.
import type { AppContext } from './app/app-context.ts';
import type { Config } from './config.ts';
import { createStoreClient } from './store/client.ts';

export function buildContext(config: Config, endpoint = config.ddbEndpoint): AppContext {
  const client = createStoreClient({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(config.region === undefined ? {} : { region: config.region }),
  });
  return {
    store: { client, tableName: config.tableName, now: Date.now },
    config: config.app,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
}
