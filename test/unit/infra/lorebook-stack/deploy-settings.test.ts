// The stack takes every other setting the functions read from one JSON object
// (`-c settings=<json file>`), checked against the settings table at synth.
import { describe, expect, it } from 'vitest';
import { deploySettings } from '../../../../infra/deploy-settings.ts';
import { resourcesOf, synthesize } from '../synth.ts';

describe('-c settings=<json file>', () => {
  it('sets each named setting on all three functions', () => {
    const { json } = synthesize({ environment: { LOREBOOK_SETTINGS_CACHE_SECONDS: 30, LOREBOOK_OUTBOUND_CONCURRENCY: '8' } });
    const functions = resourcesOf(json, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(3);
    for (const [, fn] of functions) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables).toMatchObject({ LOREBOOK_SETTINGS_CACHE_SECONDS: '30', LOREBOOK_OUTBOUND_CONCURRENCY: '8' });
    }
  }, 180_000);

  it('refuses an unknown name, one the functions do not read, one the stack sets, and a value their cold start would refuse', () => {
    expect(() => deploySettings({ LOREBOOK_NOPE: '1' })).toThrow('LOREBOOK_NOPE is not a lorebook setting');
    expect(() => deploySettings({ LOREBOOK_DATA_DIR: '/tmp' })).toThrow('LOREBOOK_DATA_DIR is not read by the Lambda functions');
    expect(() => deploySettings({ LOREBOOK_TABLE: 'other' })).toThrow('LOREBOOK_TABLE is set by the stack itself');
    expect(() => deploySettings({ LOREBOOK_SETTINGS_CACHE_SECONDS: 600 })).toThrow('LOREBOOK_SETTINGS_CACHE_SECONDS must be at most 60');
    expect(() => deploySettings(['LOREBOOK_RATE_LIMIT_PER_MINUTE'])).toThrow('settings must be a JSON object');
    expect(() => synthesize({ environment: { LOREBOOK_ANNOUNCING: 'sometimes' } })).toThrow('LOREBOOK_ANNOUNCING must be on or off');
  }, 180_000);
});
