// What `npm run settings` was asked to do, from its arguments: names and values checked against the
// settings table and the environment's parser before anything is opened (a usage error, exit 2).
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { parseOpId } from '../domain/op-id.ts';
import { parseRuntimeSetting } from '../settings/runtime-settings.ts';
import { isRuntimeSetting, isSettingName, type RuntimeSettingName } from '../settings/settings-table.ts';

export type SettingsTask =
  | { kind: 'list' }
  | { kind: 'get'; name: RuntimeSettingName }
  | { kind: 'set'; name: RuntimeSettingName; value: string; reason: string | undefined; actor: string; opId: string };

/** The setting named, refused with a sentence when it is unknown or fixed at deploy time. */
function runtimeName(name: string | undefined): RuntimeSettingName {
  if (name === undefined) throw new Error('name a setting (npm run settings -- list shows them)');
  if (!isSettingName(name)) throw new Error(`${name} is not a lorebook setting (docs/config.md lists them)`);
  if (!isRuntimeSetting(name))
    throw new Error(
      `${name} is fixed at deploy time: set it in the environment (the stack's settings file on AWS) and restart or redeploy`,
    );
  return name;
}

export function parseSettingsTask(
  positionals: readonly string[],
  values: Readonly<Record<string, string | boolean | undefined>>,
): SettingsTask {
  const [command, name, value, ...rest] = positionals;
  if (command === 'list' && name === undefined) return { kind: 'list' };
  if (command === 'get' && value === undefined) return { kind: 'get', name: runtimeName(name) };
  if (command === 'set' && value !== undefined && rest.length === 0) {
    const setting = runtimeName(name);
    parseRuntimeSetting(setting, value);
    const reason = typeof values.reason === 'string' ? values.reason : undefined;
    if (setting === 'LOREBOOK_ANNOUNCING' && reason === undefined) throw new Error('LOREBOOK_ANNOUNCING needs --reason <text>');
    const actor = typeof values.actor === 'string' ? values.actor : `operator:${userInfo().username}`;
    const opId = typeof values['op-id'] === 'string' ? parseOpId(values['op-id']) : randomUUID();
    return { kind: 'set', name: setting, value, reason, actor, opId };
  }
  throw new Error('expected: list, get <NAME>, or set <NAME> <value>');
}
