// A reproduction's agent and env, as a string or as worklore's objects: what the report keeps as
// its readable summary (its identity) and which structured fields are stored beside it.
import { describe, expect, it } from 'vitest';
import { agentMetadata, envMetadata } from '../../../src/domain/report-metadata.ts';

describe('agent', () => {
  it('an object keeps its fields and reads as "name version (model)"', () => {
    expect(agentMetadata({ name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' })).toEqual({
      summary: 'claude-code 2.0.14 (claude-sonnet-4-5)',
      fields: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' },
    });
  });

  it('version and model are optional; blank ones are left out of both', () => {
    expect(agentMetadata({ name: 'codex', model: ' ' })).toEqual({ summary: 'codex', fields: { name: 'codex' } });
    expect(agentMetadata({ name: 'codex', model: 'gpt-5' })).toEqual({
      summary: 'codex (gpt-5)',
      fields: { name: 'codex', model: 'gpt-5' },
    });
  });

  it('a string is kept as sent (normalised) with no structured fields; absent stays absent', () => {
    expect(agentMetadata('  claude-code\r\n')).toEqual({ summary: 'claude-code', fields: undefined });
    expect(agentMetadata(undefined)).toEqual({ summary: undefined, fields: undefined });
  });

  it('the same agent typed in another Unicode form is the same report', () => {
    expect(agentMetadata({ name: 'caf\u0065\u0301' }).summary).toBe(agentMetadata({ name: 'caf\u00e9' }).summary);
  });
});

describe('env', () => {
  it('an object keeps its fields and reads as "key: value" pairs, keys sorted', () => {
    expect(envMetadata({ os: 'linux', node: '22' })).toEqual({ summary: 'node: 22; os: linux', fields: { node: '22', os: 'linux' } });
  });

  it('the same env sent in another key order is the same summary', () => {
    expect(envMetadata({ os: 'macos', arch: 'arm64' }).summary).toBe(envMetadata({ arch: 'arm64', os: 'macos' }).summary);
  });

  it('blank values are dropped; an object of blanks is no env at all', () => {
    expect(envMetadata({ os: 'linux', shell: ' ' })).toEqual({ summary: 'os: linux', fields: { os: 'linux' } });
    expect(envMetadata({ os: '' })).toEqual({ summary: undefined, fields: undefined });
  });

  it('a string is kept as sent (normalised) with no structured fields', () => {
    expect(envMetadata('Ubuntu 24.04, Node 22')).toEqual({ summary: 'Ubuntu 24.04, Node 22', fields: undefined });
  });
});
