import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDocs } from '../../../src/settings/config-docs.ts';
import { SETTING_DOCS } from '../../../src/settings/settings-docs.ts';
import { SETTINGS } from '../../../src/settings/settings-table.ts';

const committed = readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8');

describe('docs/config.md', () => {
  it('is what `npm run docs:config` makes of the settings table (run it after editing the table)', () => {
    expect(committed).toBe(configDocs());
  });

  it('has one row per setting, with its name, default and line of documentation', () => {
    for (const setting of SETTINGS) {
      const row = committed.split('\n').find((line) => line.startsWith(`| \`${setting.name}\` |`));
      expect(row, setting.name).toBeDefined();
      expect(row).toContain(SETTING_DOCS[setting.name].replaceAll('|', '\\|'));
      expect(row).toContain('default' in setting ? `\`${setting.default}\`` : '| unset |');
    }
  });
});
