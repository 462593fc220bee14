import { describe, expect, it } from 'vitest';
import { clientIdUrlProblem, isClientIdUrl } from '../../../../src/auth/oauth/client-id-url.ts';

describe('which client_ids name a metadata document', () => {
  it('a URL does, a registered lbc_ id does not', () => {
    expect(isClientIdUrl('https://app.example/client.json')).toBe(true);
    expect(isClientIdUrl('lbc_0123456789abcdef0123456789abcdef')).toBe(false);
  });
});

describe('the rules for a metadata document URL', () => {
  it('an https URL with a path (and a query) is accepted', () => {
    expect(clientIdUrlProblem('https://app.example/oauth/client.json', false)).toBeUndefined();
    expect(clientIdUrlProblem('https://app.example/client?v=2', false)).toBeUndefined();
  });

  it.each([
    ['http://app.example/client.json', 'must be an https URL'],
    ['ftp://app.example/client.json', 'must be an https URL'],
    ['https://app.example/client.json#top', 'must not contain a fragment'],
    ['https://app.example/client.json#', 'must not contain a fragment'],
    ['https://me:pw@app.example/client.json', 'user name or password'],
    ['https://me@app.example/client.json', 'user name or password'],
    ['https://app.example', 'must have a path'],
    ['https://app.example/', 'must have a path'],
    ['https://app.example/a/../client.json', '. or .. path segments'],
    ['https://app.example/./client.json', '. or .. path segments'],
    ['https://app.example/a/%2e%2e/client.json', '. or .. path segments'],
    ['https://', 'is not a URL'],
    [`https://app.example/${'a'.repeat(2000)}`, 'longer than 2000'],
  ])('%s is refused: %s', (url, reason) => {
    expect(clientIdUrlProblem(url, false)).toContain(reason);
  });

  it('http is accepted only when private fetches are allowed (development against a loopback server)', () => {
    expect(clientIdUrlProblem('http://127.0.0.1:8123/client.json', true)).toBeUndefined();
    expect(clientIdUrlProblem('http://127.0.0.1:8123/client.json', false)).toContain('https');
  });
});
