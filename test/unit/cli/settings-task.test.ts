// `npm run settings` refuses, before opening anything, what the settings table and the
// environment's parser refuse: an unknown setting, a deploy-time one, an invalid value.
import { describe, expect, it } from 'vitest';
import { parseSettingsTask } from '../../../src/cli/settings-task.ts';

const parse =
  (...positionals: string[]) =>
  () =>
    parseSettingsTask(positionals, {});

describe('npm run settings arguments', () => {
  it('refuse an unknown setting and a deploy-time one by name', () => {
    expect(parse('set', 'LOREBOOK_NO_SUCH_THING', '3')).toThrow('LOREBOOK_NO_SUCH_THING is not a lorebook setting');
    expect(parse('set', 'LOREBOOK_TABLE', 'other')).toThrow('LOREBOOK_TABLE is fixed at deploy time');
    expect(parse('get', 'PORT')).toThrow('PORT is fixed at deploy time');
  });

  it("refuse a value with the environment parser's own sentence", () => {
    expect(parse('set', 'LOREBOOK_RATE_LIMIT_PER_MINUTE', '0')).toThrow(
      'LOREBOOK_RATE_LIMIT_PER_MINUTE must be a positive whole number, got "0"',
    );
    expect(parse('set', 'LOREBOOK_RATE_LIMIT_PER_MINUTE', '2.5')).toThrow('must be a positive whole number');
    expect(parse('set', 'LOREBOOK_QUARANTINE_FLAGS', '')).toThrow('LOREBOOK_QUARANTINE_FLAGS needs a value');
    expect(parse('set', 'LOREBOOK_ANNOUNCING', 'maybe')).toThrow('LOREBOOK_ANNOUNCING must be on or off, got "maybe"');
  });

  it('ask a reason to switch announcing, and mint one op id per run unless one is repeated', () => {
    expect(parse('set', 'LOREBOOK_ANNOUNCING', 'off')).toThrow('LOREBOOK_ANNOUNCING needs --reason');
    const first = parseSettingsTask(['set', 'LOREBOOK_MAX_OPEN_FLAGS', '9'], {});
    const second = parseSettingsTask(['set', 'LOREBOOK_MAX_OPEN_FLAGS', '9'], {});
    expect(first.kind === 'set' && second.kind === 'set' && first.opId !== second.opId).toBe(true);
    expect(parseSettingsTask(['set', 'LOREBOOK_MAX_OPEN_FLAGS', '9'], { 'op-id': 'op-1', actor: 'ops:ana' })).toMatchObject({
      opId: 'op-1',
      actor: 'ops:ana',
    });
  });
});
