// Every /v1 route that writes says it may answer secret_detected (its OpenAPI responses come from
// this list), and the read-only POST /v1/capability, which stores nothing, does not.
import { describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../../../../src/http/v1/routes.ts';

const STORES_NOTHING = new Set(['POST /v1/capability']);

describe('/v1 routes and secret_detected', () => {
  const writes = V1_ROUTES.filter((route) => route.method !== 'GET' && !STORES_NOTHING.has(`${route.method} ${route.path}`));

  it.each(writes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s lists secret_detected', (_name, route) => {
    expect(route.errors).toContain('secret_detected');
  });

  it('the read-only capability scan does not', () => {
    const capability = V1_ROUTES.find((route) => route.method === 'POST' && route.path === '/v1/capability');
    expect(capability?.errors).not.toContain('secret_detected');
  });
});
