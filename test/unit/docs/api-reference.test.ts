import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiReference } from '../../../src/docs/api-reference.ts';
import { flagStoryTool } from '../../../src/mcp/tools/flag-story.ts';

const committed = readFileSync(new URL('../../../docs/reference.md', import.meta.url), 'utf8');

describe('docs/reference.md', () => {
  it('is what `npm run docs:api` makes of the tools and routes (run it after changing a contract or route)', () => {
    expect(committed).toBe(apiReference());
  });

  it('changes when a tool description changes, so a stale page fails the test above', () => {
    const original = flagStoryTool.description;
    try {
      flagStoryTool.description = `${original} A sentence the committed page does not have.`;
      expect(apiReference()).not.toBe(committed);
      expect(apiReference()).toContain('A sentence the committed page does not have.');
    } finally {
      flagStoryTool.description = original;
    }
  });

  it('lists every tool with its access rule and every route with its errors', () => {
    expect(committed).toContain('### flag_story\n\n**Flag a story for review** — token with scope `lorebook:write`.');
    expect(committed).toContain('### get_story\n\n**');
    expect(committed).toMatch(/### POST \/v1\/stories\/\{slug\}\/flags\n\n\*\*[^\n]+\*\* — token; operation `flagStory`\./);
    expect(committed).toContain('`open_flag_limit`');
  });
});
