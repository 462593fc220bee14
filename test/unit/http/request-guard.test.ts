import { describe, expect, it } from 'vitest';
import { createRequestGuard } from '../../../src/http/request-guard.ts';
import { thrownRefusal } from '../../helpers/refusal.ts';

const guard = createRequestGuard({ baseUrl: 'http://127.0.0.1:8787', allowedOrigins: ['https://app.example'] });

describe('the Host/Origin guard (DNS-rebinding protection)', () => {
  it('accepts the base URL host and the loopback names of its port, with or without a known Origin', () => {
    for (const host of ['127.0.0.1:8787', 'localhost:8787', 'LOCALHOST:8787', '[::1]:8787'])
      expect(() => guard.check(host, undefined)).not.toThrow();
    for (const origin of ['http://127.0.0.1:8787', 'http://localhost:8787', 'https://app.example'])
      expect(() => guard.check('127.0.0.1:8787', origin)).not.toThrow();
  });

  it('refuses another host, another port, a missing Host, an unknown Origin and the opaque "null" Origin with forbidden', () => {
    for (const host of ['evil.example:8787', '127.0.0.1:9999', 'localhost', undefined]) {
      expect(thrownRefusal(() => guard.check(host, undefined)).details).toEqual({ reason: 'host' });
    }
    for (const origin of ['https://evil.example', 'http://localhost:9999', 'null', 'https://app.example.evil']) {
      const error = thrownRefusal(() => guard.check('127.0.0.1:8787', origin));
      expect(error.code).toBe('forbidden');
      expect(error.details).toEqual({ reason: 'origin' });
    }
  });

  it('a public base URL is its own host; extra hosts can be allowed', () => {
    const publicGuard = createRequestGuard({
      baseUrl: 'https://lorebook.example',
      allowedOrigins: [],
      allowedHosts: ['abc.lambda-url.example'],
    });
    expect(() => publicGuard.check('lorebook.example', 'https://lorebook.example')).not.toThrow();
    expect(() => publicGuard.check('abc.lambda-url.example', undefined)).not.toThrow();
    expect(thrownRefusal(() => publicGuard.check('lorebook.example:8443', undefined)).code).toBe('forbidden');
  });
});
