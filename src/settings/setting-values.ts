// How a setting's text becomes its value: one parser per kind, used for the environment at start
// (src/config.ts) and for the table's runtime settings (runtime-settings.ts), so a value
// `npm run settings -- set` accepts is one the environment would accept, and the other way round.
import { type SettingName, settingNamed } from './settings-table.ts';

/** A whole-number setting: unset or empty takes the table's default. */
export function positiveInteger(env: NodeJS.ProcessEnv, name: SettingName): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return Number(settingNamed(name).default);
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

/** A whole-number setting that may be 0: unset or empty takes the table's default. */
export function wholeNumber(env: NodeJS.ProcessEnv, name: SettingName): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return Number(settingNamed(name).default);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`);
  return value;
}

/** A whole-number setting of at most `max`. */
export function boundedInteger(env: NodeJS.ProcessEnv, name: SettingName, max: number): number {
  const value = positiveInteger(env, name);
  if (value > max) throw new Error(`${name} must be at most ${max}, got "${value}"`);
  return value;
}

/** An on | off setting: unset or empty takes the table's default. */
export function onOff(env: NodeJS.ProcessEnv, name: SettingName): boolean {
  const raw = env[name] || String(settingNamed(name).default);
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}
