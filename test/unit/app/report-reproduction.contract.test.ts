// report_reproduction's agent and env at the door: a string or worklore's object is accepted; any
// other shape, an oversized part, an unknown key or a control character is validation_failed
// naming the field (the parse runs before anything is read or written).
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../../src/app/input/parse-input.ts';
import { REPORT_REPRODUCTION_TOOL, reportReproductionInputSchema } from '../../../src/app/report-reproduction.contract.ts';
import { isLorebookError } from '../../../src/domain/errors.ts';

const parse = (extra: Record<string, unknown>) =>
  parseInput(reportReproductionInputSchema, { slug: '2026-10-14-a', result: 'worked', ...extra }, REPORT_REPRODUCTION_TOOL);

function refusedFields(extra: Record<string, unknown>): Record<string, string> {
  try {
    parse(extra);
  } catch (error) {
    if (isLorebookError(error) && error.code === 'validation_failed')
      return (error.toBody().details as { fields: Record<string, string> }).fields;
    throw error;
  }
  throw new Error('accepted');
}

describe('report_reproduction agent and env', () => {
  it("accepts worklore's objects and plain strings", () => {
    expect(parse({ agent: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' }, env: { os: 'linux' } })).toMatchObject({
      agent: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' },
      env: { os: 'linux' },
    });
    expect(parse({ agent: 'claude-code', env: 'linux' })).toMatchObject({ agent: 'claude-code', env: 'linux' });
  });

  it.each([
    ['a number', { agent: 42 }, 'agent'],
    ['an array', { env: ['linux'] }, 'env'],
    ['an agent without a name', { agent: { version: '1' } }, 'agent'],
    ['an agent with an unknown key', { agent: { name: 'x', hostname: 'my-laptop' } }, 'agent'],
    ['an agent name over 30 characters', { agent: { name: 'x'.repeat(31) } }, 'agent.name'],
    ['an env value that is not a string', { env: { os: 3 } }, 'env'],
    ['an env key that is not a label', { env: { 'Home Dir': '/home/me' } }, 'env'],
    ['an env with more than 6 keys', { env: Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, 'v'])) }, 'env'],
    ['an env value over 40 characters', { env: { os: 'x'.repeat(41) } }, 'env.os'],
    ['an agent string over 100 characters', { agent: 'x'.repeat(101) }, 'agent'],
  ])('refuses %s, naming the field', (_what, extra, field) => {
    expect(Object.keys(refusedFields(extra))).toEqual([field]);
  });

  it('refuses a control character inside the object, naming where it stands', () => {
    expect(refusedFields({ agent: { name: 'claude\u0007code' } })).toEqual({ 'agent.name': expect.stringContaining('U+0007') });
    expect(refusedFields({ env: { os: 'li\u001bnux' } })).toEqual({ 'env.os': expect.stringContaining('U+001B') });
  });
});
