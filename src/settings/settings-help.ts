// The `environment:` part of a command's --help, from the table: the settings that command
// reads, each with its line of documentation and its default.
import type { Setting, Surface } from './setting.ts';
import { SETTING_DOCS } from './settings-docs.ts';
import { SETTINGS, type SettingName } from './settings-table.ts';

const NAME_WIDTH = 38;
const LINE_WIDTH = 110;

function described(setting: Setting): string {
  const doc = SETTING_DOCS[setting.name as SettingName];
  return setting.default === undefined ? doc : `${doc} (default ${setting.default})`;
}

/** Words wrapped to lines of at most `width` characters (a longer word keeps its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

function entry(setting: Setting): string {
  const indent = ' '.repeat(NAME_WIDTH + 2);
  const [first = '', ...rest] = wrap(described(setting), LINE_WIDTH - indent.length);
  const head = setting.name.length < NAME_WIDTH ? `  ${setting.name.padEnd(NAME_WIDTH)}${first}` : `  ${setting.name}\n${indent}${first}`;
  return [head, ...rest.map((line) => `${indent}${line}`)].join('\n');
}

/** The settings `surface` reads, one entry each, in the table's order; docs/config.md has them all. */
export function settingsHelp(surface: Surface): string {
  const entries = SETTINGS.filter((setting: Setting) => setting.surfaces.includes(surface)).map(entry);
  return `environment (every setting: docs/config.md):\n${entries.join('\n')}`;
}
