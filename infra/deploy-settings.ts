// Every other setting the functions read, by name (`-c settings=<json file>`, docs/deploy.md): an
// object of setting name -> value, checked against the settings table at synth — a name the
// functions do not read, or that the stack sets itself, is refused, and the values are parsed as
// the functions' cold start would parse them (readConfig), so a bad value fails the synth instead
// of every request. Runtime settings given here are their defaults (design.md#settings).
import { readFileSync } from 'node:fs';
import { LAMBDA_ENV } from '../handlers/lambda-runtime.ts';
import { readConfig } from '../src/config.ts';
import { isSettingName, settingNamed } from '../src/settings/settings-table.ts';

/** What the stack sets itself, from its own resources and context options. */
const SET_BY_THE_STACK: ReadonlySet<string> = new Set([
  ...Object.values(LAMBDA_ENV),
  'LOREBOOK_ALLOWED_ORIGINS',
  'LOREBOOK_BLUESKY_OAUTH_CLIENT',
  'LOREBOOK_DDB_ENDPOINT',
  'LOREBOOK_IMAGE_S3_ENDPOINT',
  'LOREBOOK_SEARCH_S3_ENDPOINT',
  'AWS_REGION',
]);

/** The settings as the functions' environment, or a sentence naming what is wrong. */
export function deploySettings(values: unknown): Record<string, string> {
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    throw new Error('settings must be a JSON object of setting name -> value (docs/config.md lists them)');
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!isSettingName(name)) throw new Error(`settings: ${name} is not a lorebook setting (docs/config.md lists them)`);
    if (!settingNamed(name).surfaces.includes('lambda')) throw new Error(`settings: ${name} is not read by the Lambda functions`);
    if (SET_BY_THE_STACK.has(name)) throw new Error(`settings: ${name} is set by the stack itself (its own -c option, docs/deploy.md)`);
    if (!['string', 'number', 'boolean'].includes(typeof value)) throw new Error(`settings: ${name} must be a string or a number`);
    environment[name] = String(value);
  }
  readConfig(environment);
  return environment;
}

/** The JSON file `-c settings=<path>` names. */
export function readDeploySettingsFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`settings: could not read ${path} as JSON (${(error as Error).message})`);
  }
}
