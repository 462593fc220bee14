// The settings changed at run time (design.md#settings): the rows the settings table marks `runtime`, each
// with the part of the app's config it sets. The environment's value is read through these at
// start (src/config.ts); the table's values through the same parsers, over it, while running.
import type { AppConfig } from '../app/context/app-context.ts';
import { onOff, positiveInteger, wholeNumber } from './setting-values.ts';
import { type RuntimeSettingName, settingNamed } from './settings-table.ts';

export type RuntimeConfig = Pick<
  AppConfig,
  | 'rateLimitPerMinute'
  | 'anonymousRateLimitPerMinute'
  | 'quarantineFlags'
  | 'newAccountHours'
  | 'maxOpenFlags'
  | 'announcing'
  | 'storiesPerDay'
  | 'newAccountStoriesPerDay'
  | 'duplicateWindowHours'
>;

type Parser = (env: NodeJS.ProcessEnv) => Partial<RuntimeConfig>;

/** One parser per runtime row: a row marked runtime without one does not type-check. */
const PARSERS: Record<RuntimeSettingName, Parser> = {
  LOREBOOK_RATE_LIMIT_PER_MINUTE: (env) => ({ rateLimitPerMinute: positiveInteger(env, 'LOREBOOK_RATE_LIMIT_PER_MINUTE') }),
  LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: (env) => ({
    anonymousRateLimitPerMinute: positiveInteger(env, 'LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE'),
  }),
  LOREBOOK_QUARANTINE_FLAGS: (env) => ({ quarantineFlags: positiveInteger(env, 'LOREBOOK_QUARANTINE_FLAGS') }),
  LOREBOOK_NEW_ACCOUNT_HOURS: (env) => ({ newAccountHours: wholeNumber(env, 'LOREBOOK_NEW_ACCOUNT_HOURS') }),
  LOREBOOK_MAX_OPEN_FLAGS: (env) => ({ maxOpenFlags: positiveInteger(env, 'LOREBOOK_MAX_OPEN_FLAGS') }),
  LOREBOOK_ANNOUNCING: (env) => ({ announcing: onOff(env, 'LOREBOOK_ANNOUNCING') }),
  LOREBOOK_STORIES_PER_DAY: (env) => ({ storiesPerDay: positiveInteger(env, 'LOREBOOK_STORIES_PER_DAY') }),
  LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY: (env) => ({
    newAccountStoriesPerDay: positiveInteger(env, 'LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY'),
  }),
  LOREBOOK_DUPLICATE_WINDOW_HOURS: (env) => ({ duplicateWindowHours: wholeNumber(env, 'LOREBOOK_DUPLICATE_WINDOW_HOURS') }),
};

export const RUNTIME_SETTING_NAMES = Object.keys(PARSERS) as RuntimeSettingName[];

/** The runtime settings as the environment sets them (unset: the table's defaults). */
export function runtimeConfig(env: NodeJS.ProcessEnv): RuntimeConfig {
  return Object.assign({}, ...RUNTIME_SETTING_NAMES.map((name) => PARSERS[name](env))) as RuntimeConfig;
}

/**
 * One stored value as config; throws the sentence the environment would get for it. An empty value
 * is refused (it would mean "the default").
 */
export function parseRuntimeSetting(name: RuntimeSettingName, value: string): Partial<RuntimeConfig> {
  if (value.trim() === '') throw new Error(`${name} needs a value (${settingNamed(name).type})`);
  return PARSERS[name]({ [name]: value });
}

/**
 * The table's values over the deploy-time ones. A stored value that no longer parses (written by
 * hand, or by a release with other rules) is skipped and named, so one bad item cannot stop a
 * process or hide the others.
 */
export function withStoredSettings<C extends RuntimeConfig>(
  deployTime: C,
  stored: Readonly<Record<string, string>>,
  onInvalid: (problem: string) => void,
): C {
  const config = { ...deployTime };
  for (const name of RUNTIME_SETTING_NAMES) {
    const value = stored[name];
    if (value === undefined) continue;
    try {
      Object.assign(config, parseRuntimeSetting(name, value));
    } catch (error) {
      onInvalid(`lorebook: the stored ${name} is skipped: ${(error as Error).message}`);
    }
  }
  return config;
}
