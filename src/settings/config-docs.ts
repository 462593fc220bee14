// docs/config.md, generated from the settings table (`npm run docs:config` writes it; a unit test
// fails when the file and the table disagree).
import type { Setting } from './setting.ts';
import { SETTING_DOCS } from './settings-docs.ts';
import { SETTINGS, type SettingName } from './settings-table.ts';

/** A table cell: a `|` would end the cell early. */
const cell = (text: string): string => text.replaceAll('|', '\\|');

function row(setting: Setting): string {
  const byDefault = setting.default === undefined ? 'unset' : `\`${setting.default}\``;
  const where = setting.surfaces
    .map((surface) => (surface === 'lambda' ? 'Lambda' : `npm run ${surface}`.replace('npm run start', 'npm start')))
    .join(', ');
  const changed = setting.runtime === true ? 'run time' : 'deploy';
  return `| \`${setting.name}\` | ${cell(setting.type)} | ${byDefault} | ${changed} | ${cell(SETTING_DOCS[setting.name as SettingName])} | ${where} |`;
}

export function configDocs(): string {
  return [
    '# Settings',
    '',
    '<!-- Generated from src/settings/settings-table.ts by `npm run docs:config`; edit the table, not this file. -->',
    '',
    'Every environment variable lorebook reads. An unset or empty variable takes its default;',
    'a value of the wrong type stops the process at start with a sentence naming the variable.',
    "Each command's `--help` lists the settings it reads. On Lambda the stack sets them",
    '(docs/deploy.md); the app password and the sign-in key come from Secrets Manager there.',
    '',
    'Changed at **run time**: `npm run settings -- set <NAME> <value>` stores a value in the table,',
    'which every process honours within LOREBOOK_SETTINGS_CACHE_SECONDS; the variable is the default',
    'while the table holds none (docs/operations.md). Every other setting is fixed at **deploy** time.',
    '',
    '| Name | Type | Default | Changed | What it does | Read by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...SETTINGS.map(row),
    '',
  ].join('\n');
}
