// The sitemap's two documents, and the names of its files: hostile values come back from a
// parser exactly as they went in, and only the names the index hands out name a part.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parseSitemapPartName, sitemapPartPath } from '../../../../src/http/pages/sitemap-paths.ts';
import { sitemapIndexXml, urlsetXml } from '../../../../src/http/pages/sitemap-xml.ts';

const parser = new XMLParser({ parseTagValue: false, htmlEntities: true, isArray: (name) => name === 'url' || name === 'sitemap' });
const HOSTILE = `https://example.test/a&b<c>"d"'e'/]]>/&amp;/\r`;

describe('escaping', () => {
  it('a location with every XML metacharacter parses back to itself, in a urlset and in an index', () => {
    const urlset = urlsetXml([{ loc: HOSTILE, lastmod: '2026-12-01T00:00:00.000Z' }]);
    expect(XMLValidator.validate(urlset)).toBe(true);
    expect((parser.parse(urlset) as { urlset: { url: Array<{ loc: string }> } }).urlset.url[0]?.loc).toBe(HOSTILE);
    const index = sitemapIndexXml([{ loc: HOSTILE }]);
    expect(XMLValidator.validate(index)).toBe(true);
    expect((parser.parse(index) as { sitemapindex: { sitemap: Array<{ loc: string }> } }).sitemapindex.sitemap[0]?.loc).toBe(HOSTILE);
  });

  it('a character XML cannot hold is shown by name, so the document stays readable and nothing is silently dropped', () => {
    const xml = urlsetXml([{ loc: 'https://example.test/\u0001x' }]);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect((parser.parse(xml) as { urlset: { url: Array<{ loc: string }> } }).urlset.url[0]?.loc).toBe('https://example.test/{U+0001}x');
  });
});

describe('part names', () => {
  it.each([
    [{ month: '2026-12', part: 1 }, '/sitemap/2026-12.xml'],
    [{ month: '2026-12', part: 2 }, '/sitemap/2026-12-p2.xml'],
    [{ month: '2026-01', part: 12 }, '/sitemap/2026-01-p12.xml'],
  ])('%o lives at %s and that name reads back to it', (ref, path) => {
    expect(sitemapPartPath(ref)).toBe(path);
    expect(parseSitemapPartName(path.replace('/sitemap/', ''))).toEqual(ref);
  });

  it.each([
    '2026-12-p1.xml',
    '2026-12-p0.xml',
    '2026-12-p02.xml',
    '2026-13.xml',
    '2026-00.xml',
    '2026-12.xml.gz',
    '2026-12-p123456.xml',
    'home.xml',
  ])('%s names no part', (name) => {
    expect(parseSitemapPartName(name)).toBeUndefined();
  });
});
