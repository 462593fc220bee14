// The context an operator command runs on: with `--aws` the deployed table, named by
// LOREBOOK_TABLE in AWS_REGION through the default credential chain (never created here);
// otherwise the local store openCommandStore finds or starts, with its table made sure.
import type { AppContext } from '../app/app-context.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { readSettings } from '../settings/read-settings.ts';
import { ensureTable } from '../store/bootstrap.ts';
import { openCommandStore, type LocalStore } from './local-store.ts';

export interface CommandContext {
  ctx: AppContext;
  /** Where the table is, for the command's first log line: `in <region>` or `at <endpoint>`. */
  where: string;
  /** Ends the client and the local store the command started, if it started one. */
  close(): Promise<void>;
}

/** Throws the usage error an `--aws` run without the stack's table and region gets. */
export function requireAwsSettings(): void {
  if (!readSettings().LOREBOOK_TABLE || !readSettings().AWS_REGION)
    throw new Error('--aws needs LOREBOOK_TABLE (the stack output TableName) and AWS_REGION');
}

export async function openCommandContext(config: Config, aws: boolean, log: (line: string) => void): Promise<CommandContext> {
  const store: LocalStore | undefined = aws ? undefined : await openCommandStore(config, log);
  const ctx = store === undefined ? buildContext({ ...config, ddbEndpoint: undefined }) : buildContext(config, store.endpoint);
  const close = async (): Promise<void> => {
    ctx.store.client.destroy();
    await store?.close();
  };
  try {
    if (store !== undefined) await ensureTable(ctx.store.client, config.tableName);
  } catch (error) {
    await close();
    throw error;
  }
  return { ctx, where: store === undefined ? `in ${config.region}` : `at ${store.endpoint}`, close };
}
