// The CDK app (`npx cdk synth`, `npx cdk deploy`; cdk.json runs this file with Node 22's type
// stripping). Settings come from context: -c baseUrl=… -c blueskyIdentifier=… -c alarmEmail=…
// -c blueskyOAuthClient=production -c feedPublisherDid=did:plc:… -c feedRkey=… -c feedTags=…, and every
// other setting the functions read from one JSON file: -c settings=<path> (docs/deploy.md)
// -c httpReservedConcurrency=… -c tableName=… -c tableStreamArn=… (docs/backup.md)
// -c domainName=… -c certificateArn=… -c wafRateLimit=… -c originSecretVersionId=… (a custom domain, docs/operations.md)
import { App } from 'aws-cdk-lib';
import { settingNamed } from '../src/settings/settings-table.ts';
import { readDeploySettingsFile } from './deploy-settings.ts';
import { type LorebookSettings, LorebookStack } from './lorebook-stack.ts';

const app = new App();
const text = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};
const optional = <K extends string>(key: K): Partial<Record<K, string>> => {
  const value = text(key);
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
};

const settings: LorebookSettings = {
  ...optional('baseUrl'),
  ...optional('allowedOrigins'),
  ...optional('blueskyIdentifier'),
  ...optional('alarmEmail'),
  ...optional('feedPublisherDid'),
  ...optional('feedRkey'),
  ...optional('feedTags'),
  ...(optional('blueskyOAuthClient') as Pick<LorebookSettings, 'blueskyOAuthClient'>),
  blueskyService: text('blueskyService') ?? 'https://bsky.social',
  ...existingTable(),
  ...customDomain(),
  ...(text('httpReservedConcurrency') === undefined ? {} : { httpReservedConcurrency: Number(text('httpReservedConcurrency')) }),
};
const settingsFile = text('settings');
if (settingsFile !== undefined) settings.environment = readDeploySettingsFile(settingsFile) as Record<string, unknown>;

/** -c tableName=… -c tableStreamArn=…: both or neither. */
function existingTable(): Pick<LorebookSettings, 'existingTable'> {
  const tableName = text('tableName');
  const tableStreamArn = text('tableStreamArn');
  if (tableName === undefined && tableStreamArn === undefined) return {};
  if (tableName === undefined || tableStreamArn === undefined)
    throw new Error('-c tableName needs -c tableStreamArn (the stream of the restored table, docs/backup.md), and the other way round');
  return { existingTable: { tableName, tableStreamArn } };
}

/** -c domainName=… -c certificateArn=…: both or neither; -c wafRateLimit and -c originSecretVersionId only with them. */
function customDomain(): Pick<LorebookSettings, 'customDomain'> {
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  const wafRateLimit = text('wafRateLimit');
  const originSecretVersionId = text('originSecretVersionId');
  if (domainName === undefined && certificateArn === undefined) {
    if (wafRateLimit !== undefined || originSecretVersionId !== undefined)
      throw new Error('-c wafRateLimit and -c originSecretVersionId need a custom domain: -c domainName=… -c certificateArn=…');
    return {};
  }
  if (domainName === undefined || certificateArn === undefined)
    throw new Error('-c domainName needs -c certificateArn (an ACM certificate for it in us-east-1), and the other way round');
  return {
    customDomain: {
      domainName,
      certificateArn,
      ...(wafRateLimit === undefined ? {} : { wafRateLimit: Number(wafRateLimit) }),
      ...(originSecretVersionId === undefined ? {} : { originSecretVersionId }),
    },
  };
}

// The operator commands' --aws finds the stack by this name (LOREBOOK_STACK_NAME, the same default).
new LorebookStack(app, text('stackName') ?? String(settingNamed('LOREBOOK_STACK_NAME').default), settings, {
  description: 'lorebook: community story platform (Lambda + DynamoDB)',
  ...(process.env.CDK_DEFAULT_ACCOUNT === undefined
    ? {}
    : { env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION } }),
});
app.synth();
