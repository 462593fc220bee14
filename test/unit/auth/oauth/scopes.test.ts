import { describe, expect, it } from 'vitest';
import { MCP_TOOL_SCOPE, scopeNeeded } from '../../../../src/auth/access-rule.ts';
import { heldScopes, parseScope } from '../../../../src/auth/oauth/scopes.ts';
import { TOOLS } from '../../../../src/mcp/tools/index.ts';

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
  // That every tool needing a token has a scope, and no other, is the compiler's to check (test/unit/auth/mcp-tool-name.test.ts).
  it('an MCP tool that needs a token needs lorebook:read if it only reads (readOnlyHint), lorebook:write otherwise', () => {
    for (const [name, scope] of Object.entries(MCP_TOOL_SCOPE)) {
      const tool = TOOLS.find((defined) => defined.name === name);
      expect(scope, name).toBe(tool?.annotations.readOnlyHint ? 'lorebook:read' : 'lorebook:write');
    }
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
