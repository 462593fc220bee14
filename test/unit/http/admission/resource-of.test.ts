import { describe, expect, it } from 'vitest';
import { resourceOf } from '../../../../src/http/admission.ts';

describe('the resource a request is for (RFC 8707)', () => {
  it('is the base URL and the first path segment: /mcp and /v1 are two resources', () => {
    expect(resourceOf('https://lorebook.example', '/mcp')).toBe('https://lorebook.example/mcp');
    expect(resourceOf('https://lorebook.example/', '/v1/stories/x')).toBe('https://lorebook.example/v1');
  });

  it('is unknown without a base URL, so a resource-bound token is refused rather than accepted anywhere', () => {
    expect(resourceOf(undefined, '/mcp')).toBeUndefined();
  });
});
