// One lorebook Lambda: a handler from handlers/ bundled by local esbuild (split into chunks that
// load on first use: bundling.ts), on nodejs22.x arm64 (Graviton: ~20% cheaper per GB-second
// than x86 for the same work), with its own log group.
import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { BUNDLING, nativeModulesBundling, splitBundleHooks } from './bundling.ts';

export const REPO_ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

export interface HandlerFunctionProps {
  /** File under handlers/, e.g. 'http.ts'. */
  file: string;
  memorySize: number;
  timeout: Duration;
  environment: Record<string, string>;
  description: string;
  /** Native modules the handler loads (sharp), installed beside the bundle for linux-arm64. */
  nativeModules?: readonly string[];
  /** Concurrent executions kept for this function alone, and its ceiling. */
  reservedConcurrentExecutions?: number;
}

export function handlerFunction(scope: Construct, id: string, props: HandlerFunctionProps): NodejsFunction {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  const entry = `${REPO_ROOT}/handlers/${props.file}`;
  return new NodejsFunction(scope, id, {
    entry,
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: `${REPO_ROOT}/package-lock.json`,
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    description: props.description,
    ...(props.reservedConcurrentExecutions === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
    logGroup,
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    bundling: {
      ...(props.nativeModules === undefined ? BUNDLING : nativeModulesBundling(props.nativeModules)),
      commandHooks: splitBundleHooks(entry),
    },
  });
}
