import { describe, expect, it } from 'vitest';
import { MCP_TOOL_ACCESS, MCP_TOOL_SCOPE, scopeNeeded } from '../../../../src/auth/access-rule.ts';
import { heldScopes, parseScope } from '../../../../src/auth/oauth/scopes.ts';

describe('scope strings', () => {
  it('parses a space-separated list into the known scopes, in a stable order, and refuses unknown ones', () => {
    expect(parseScope('lorebook:write  lorebook:read')).toEqual(['lorebook:read', 'lorebook:write']);
    expect(parseScope('lorebook:read')).toEqual(['lorebook:read']);
    expect(parseScope('lorebook:read admin')).toBeUndefined();
    expect(parseScope('')).toEqual([]);
  });

  it('a token stored without a scope holds every scope', () => {
    expect(heldScopes(undefined)).toEqual(['lorebook:read', 'lorebook:write']);
    expect(heldScopes('lorebook:read')).toEqual(['lorebook:read']);
  });
});

describe('which scope a call needs', () => {
  it('every MCP tool that needs a token has a scope; read tools read and the rest write', () => {
    const tokenTools = Object.entries(MCP_TOOL_ACCESS)
      .filter(([, access]) => access === 'token')
      .map(([name]) => name);
    expect(Object.keys(MCP_TOOL_SCOPE).sort()).toEqual(tokenTools.sort());
    expect(scopeNeeded({ mcpTool: 'list_notifications' })).toBe('lorebook:read');
    expect(scopeNeeded({ mcpTool: 'publish_story' })).toBe('lorebook:write');
    expect(scopeNeeded({ mcpTool: 'mark_notifications_read' })).toBe('lorebook:write');
  });

  it('on HTTP a GET reads and every other method writes', () => {
    expect(scopeNeeded({ httpMethod: 'GET' })).toBe('lorebook:read');
    expect(scopeNeeded({ httpMethod: 'head' })).toBe('lorebook:read');
    expect(scopeNeeded({ httpMethod: 'POST' })).toBe('lorebook:write');
    expect(scopeNeeded({ httpMethod: 'DELETE' })).toBe('lorebook:write');
  });
});
