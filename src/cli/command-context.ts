// The context an operator command runs on. Locally: the store openCommandStore finds or starts,
// with its table made sure. With `--aws`: the deployed table in AWS_REGION through the default
// credential chain (never created here), named by LOREBOOK_TABLE or else, with the buckets, by
// the outputs of the stack LOREBOOK_STACK_NAME. Both are the same AppContext on the same use
// cases; only where the store is differs.
import type { AppContext } from '../app/context/app-context.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { readSettings } from '../settings/read-settings.ts';
import { settingNamed } from '../settings/settings-table.ts';
import { ensureTable } from '../store/bootstrap.ts';
import { type LocalStore, openCommandStore } from './local-store.ts';

export interface CommandContext {
  ctx: AppContext;
  /** The config the context was built from: with `--aws`, the table and buckets the stack names. */
  config: Config;
  /** Where the table is, for the command's first log line: `in <region>…` or `at <endpoint>`. */
  where: string;
  /** Ends the client, the offload workers and the local store the command started, if it started one. */
  close(): Promise<void>;
}

/** Throws the usage error an `--aws` run without the stack's region gets. */
export function requireAwsSettings(): void {
  if (!readSettings().AWS_REGION) throw new Error("--aws needs AWS_REGION (the deployed stack's region)");
}

/**
 * The `--aws` paragraph of a command's --help: what the run needs. `actions`: the DynamoDB
 * actions the command's own calls need on the table, e.g. "GetItem, Query and UpdateItem".
 */
export function awsHelp(actions: string): string {
  return `With --aws: AWS_REGION (the deployed stack's region) is required. The table and the buckets are
the outputs of the CloudFormation stack LOREBOOK_STACK_NAME (default ${stackNameDefault()}), read with
DescribeStacks; LOREBOOK_TABLE, when set, names the table instead and nothing is looked up. A table
is never created. Your AWS credentials (the default chain: AWS_PROFILE, AWS_ACCESS_KEY_ID…) need
cloudformation:DescribeStacks on the stack, and on the table:
  ${actions}`;
}

const stackNameDefault = (): string => String(settingNamed('LOREBOOK_STACK_NAME').default);

export async function openCommandContext(config: Config, aws: boolean, log: (line: string) => void): Promise<CommandContext> {
  if (aws) {
    const cloud = await deployedConfig(config);
    const ctx = buildContext(cloud.config);
    return { ...cloud, ctx, close: () => closeContext(ctx) };
  }
  const store: LocalStore = await openCommandStore(config, log);
  const ctx = buildContext(config, store.endpoint);
  const close = async (): Promise<void> => {
    await closeContext(ctx);
    await store.close();
  };
  try {
    await ensureTable(ctx.store.client, config.tableName);
  } catch (error) {
    await close();
    throw error;
  }
  return { ctx, config, where: `at ${store.endpoint}`, close };
}

/** Ends the context's store client and the offload workers its parses, scans and documents' plain text ran on. */
async function closeContext(ctx: AppContext): Promise<void> {
  ctx.store.client.destroy();
  await ctx.cpu?.offload.close();
}

/** The config of an `--aws` run: AWS, not a local endpoint, and the stack's table and buckets unless LOREBOOK_TABLE is set. */
async function deployedConfig(local: Config): Promise<{ config: Config; where: string }> {
  const config: Config = { ...local, ddbEndpoint: undefined };
  const region = String(config.region);
  const settings = readSettings();
  if (settings.LOREBOOK_TABLE) return { config, where: `in ${region}` };
  const stackName = settings.LOREBOOK_STACK_NAME || stackNameDefault();
  const { readStackOutputs } = await import('../store/stack-outputs.ts');
  const outputs = await readStackOutputs(stackName, region);
  if (outputs.TableName === undefined)
    throw new Error(`the stack "${stackName}" in ${region} has no TableName output: is LOREBOOK_STACK_NAME the lorebook stack?`);
  // A bucket setting that is set wins, as LOREBOOK_TABLE would.
  const bucket = (set: Config['images'], output: string | undefined): Config['images'] =>
    'bucket' in set || output === undefined ? set : { bucket: output, endpoint: undefined };
  return {
    config: {
      ...config,
      tableName: outputs.TableName,
      images: bucket(config.images, outputs.ImageBucketName),
      search: bucket(config.search, outputs.SearchBucketName),
    },
    where: `in ${region} (stack "${stackName}")`,
  };
}
