// `npm run settings -- list | get <NAME> | set <NAME> <value>` (design.md#settings; docs/operations.md): the
// runtime settings — rate limits, moderation thresholds, the announcing switch — read and changed
// in the table while every process runs on. Names and values are checked against the settings
// table with the parser the environment uses, before anything is opened.
import { setAnnouncing } from '../app/moderation/set-announcing.ts';
import { type SetSettingOutcome, setSetting } from '../app/settings/set-setting.ts';
import { RUNTIME_SETTING_NAMES } from '../settings/runtime-settings.ts';
import { type RuntimeSettingName, settingNamed } from '../settings/settings-table.ts';
import { readStoredSettings, type StoredSetting } from '../store/setting-items.ts';
import { awsHelp } from './command-context.ts';
import { type OpenedCommand, type OperatorCommand, printLine, runOperatorCommand } from './operator-command.ts';
import { parseSettingsTask, type SettingsTask } from './settings-task.ts';

const runtimeLines = RUNTIME_SETTING_NAMES.map((name) => {
  const setting = settingNamed(name);
  return `  ${name.padEnd(42)}${setting.type} (default ${String(setting.default)})`;
}).join('\n');

const HELP = `usage: npm run settings -- list [--aws] [--json]
       npm run settings -- get <NAME> [--aws] [--json]
       npm run settings -- set <NAME> <value> [--reason <text>] [--actor <who>] [--op-id <id>] [--aws] [--json]

The runtime settings live in the table, an item each; every process (npm start, each Lambda
instance) reads them at most once per LOREBOOK_SETTINGS_CACHE_SECONDS (60 s), so a change is
honoured everywhere within that. A setting not set in the table takes the process's environment
value (its default when unset). Every other setting is fixed at deploy time (docs/config.md).

list: every runtime setting and its value in the table, if any.
get:  one runtime setting.
set:  stores a value, checked as the environment's would be. The same value again changes
      nothing; the op id (one per run, --op-id repeats one) makes a retried run answer as the first.
      LOREBOOK_ANNOUNCING needs --reason and writes a moderation log record.

runtime settings:
${runtimeLines}

options:
  --reason <text>  why (at most 500 characters); required for LOREBOOK_ANNOUNCING
  --actor <who>    who is changing it (default operator:<your user name>)
  --op-id <id>     repeat an earlier run's op id (default: a new one)
  --aws            the deployed table in AWS instead of a local store (below)
  --json           print the answer as JSON
  -h, --help       this text

Without --aws the store is found as for npm start (docs/config.md).

${awsHelp('Query (list, get), GetItem, PutItem, ConditionCheckItem and TransactWriteItems (set)')}

exit status: 0 when done, 1 when the store could not be read or written, 2 on a usage error
(an unknown or deploy-time setting, an invalid value).
`;

interface Shown {
  name: string;
  /** The value in the table; null: not set there (each process's environment value applies). */
  value: string | null;
  default: string;
  updated_at?: string;
  updated_by?: string;
}

function shown(name: RuntimeSettingName, stored: StoredSetting | undefined): Shown {
  const fallback = String(settingNamed(name).default);
  if (stored === undefined) return { name, value: null, default: fallback };
  return { name, value: stored.value, default: fallback, updated_at: stored.updated_at, updated_by: stored.updated_by };
}

const line = (setting: Shown): string =>
  setting.value === null
    ? `${setting.name}: not set in the table (each process's environment value, default ${setting.default})`
    : `${setting.name} = ${setting.value} (set by ${setting.updated_by} at ${setting.updated_at})`;

async function show({ ctx }: OpenedCommand, names: readonly RuntimeSettingName[], json: boolean): Promise<number> {
  const stored = new Map((await readStoredSettings(ctx.store)).map((setting) => [setting.name, setting]));
  const settings = names.map((name) => shown(name, stored.get(name)));
  printLine(json ? JSON.stringify(names.length === 1 ? settings[0] : settings, null, 2) : settings.map(line).join('\n'));
  return 0;
}

async function set(
  { ctx, config, where, log }: OpenedCommand,
  task: Extract<SettingsTask, { kind: 'set' }>,
  json: boolean,
): Promise<number> {
  log(`setting ${task.name} to ${task.value} in table "${config.tableName}" ${where} (op ${task.opId})`);
  const input = { actor: task.actor, op_id: task.opId };
  const outcome =
    task.name === 'LOREBOOK_ANNOUNCING'
      ? await setAnnouncing(ctx, { ...input, on: task.value === 'on', reason: task.reason ?? '' })
      : await setSetting(ctx, { ...input, name: task.name, value: task.value });
  printLine(json ? JSON.stringify({ ...outcome, op_id: task.opId }, null, 2) : described(outcome, config.settingsCacheMs));
  return 0;
}

function described(outcome: SetSettingOutcome & { replayed?: true }, cacheMs: number): string {
  const was = outcome.previous === null ? "was not set: each process's environment value applied" : `was ${outcome.previous}`;
  const what = outcome.changed
    ? `${outcome.name} = ${outcome.value} (${was}); every process honours it within ${cacheMs / 1000} s`
    : `${outcome.name} is already ${outcome.value}: nothing changed`;
  return outcome.replayed === true ? `${what} (a replay of an earlier run: nothing written now)` : what;
}

const settings: OperatorCommand<SettingsTask> = {
  name: 'settings',
  help: HELP,
  options: { reason: { type: 'string' }, actor: { type: 'string' }, 'op-id': { type: 'string' } },
  parse: ({ positionals, values }) => parseSettingsTask(positionals, values),
  run(opened, task, { json }) {
    if (task.kind === 'set') return set(opened, task, json);
    return show(opened, task.kind === 'list' ? RUNTIME_SETTING_NAMES : [task.name], json);
  },
};

process.exitCode = await runOperatorCommand(settings, process.argv.slice(2));
