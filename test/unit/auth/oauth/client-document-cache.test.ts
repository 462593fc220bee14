import { describe, expect, it } from 'vitest';
import { ClientDocumentCache, DEFAULT_AGE_MS, freshnessMs, MAX_AGE_MS } from '../../../../src/auth/oauth/client-document-cache.ts';

describe('how long a metadata document stays fresh, by its Cache-Control', () => {
  it.each([
    ['max-age=60', 60_000],
    ['public, max-age=0', 0],
    ['no-cache', 0],
    ['no-cache, max-age=600', 0],
    ['max-age=99999999', MAX_AGE_MS],
    [null, DEFAULT_AGE_MS],
    ['private', DEFAULT_AGE_MS],
  ])('%s -> %s ms', (header, ms) => {
    expect(freshnessMs(header, 0)).toBe(ms);
  });

  it.each([['no-store, max-age=60'], ['no-cache'], ['max-age=0'], ['max-age=5']])(
    '%s is kept the floor all the same, so asking for no caching cannot make every request a fetch',
    (header) => {
      expect(freshnessMs(header, 60_000)).toBe(60_000);
    },
  );

  it('the floor never stretches past the longest trust, nor shortens a longer max-age', () => {
    expect(freshnessMs('max-age=600', 60_000)).toBe(600_000);
    expect(freshnessMs('no-store', MAX_AGE_MS * 2)).toBe(MAX_AGE_MS);
  });
});

describe('the document cache', () => {
  it('holds at most its bound of entries, dropping the least recently used first', () => {
    const cache = new ClientDocumentCache(2);
    cache.set('a', { body: 1, freshUntil: 1 });
    cache.set('b', { body: 2, freshUntil: 1 });
    expect(cache.get('a')?.body).toBe(1);
    cache.set('c', { body: 3, freshUntil: 1 });
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe(1);
    expect(cache.get('c')?.body).toBe(3);
  });

  it('a thousand strangers URLs never hold more than the default bound', () => {
    const cache = new ClientDocumentCache();
    for (let index = 0; index < 1500; index += 1) cache.set(`https://x${index}.example/c.json`, { body: index, freshUntil: 1 });
    expect(cache.size).toBe(1000);
  });
});
