// The environment of a lorebook command a test starts (npm start, a CLI): this process's, without
// its LOREBOOK_* and BLUESKY_* settings, which must not leak into the child; the test adds the
// ones it means.
export function withoutLorebookSettings(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('LOREBOOK_') && !name.startsWith('BLUESKY_')) env[name] = value;
  return env;
}

/** Where no DynamoDB listens: a command that used the local store instead of the stack's would fail. */
export const NOWHERE = 'http://127.0.0.1:9';

/**
 * The operator's shell for an `--aws` command: region, credentials and the stack's name, DynamoDB
 * through the SDK's own endpoint setting (this suite's DynamoDB Local standing in for the deployed
 * table), CloudFormation at a fake on loopback, and nothing of a local store.
 */
export function operatorAwsEnv(stack: { name: string; cloudFormationUrl: string; dynamoDbEndpoint: string }): NodeJS.ProcessEnv {
  const env = withoutLorebookSettings();
  for (const name of Object.keys(env)) if (name.startsWith('AWS_')) delete env[name];
  return {
    ...env,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'lorebookops',
    AWS_SECRET_ACCESS_KEY: 'lorebookops',
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoDbEndpoint,
    AWS_ENDPOINT_URL_CLOUDFORMATION: stack.cloudFormationUrl,
    LOREBOOK_STACK_NAME: stack.name,
    LOREBOOK_DDB_ENDPOINT: NOWHERE,
  };
}
