// Reads the sitemap as a crawler does: /sitemap.xml (a sitemapindex), then every sitemap it
// names, each checked to be well-formed XML in the sitemaps.org namespace and parsed with
// fast-xml-parser. Fails loudly on any answer but 200.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

export interface ReadSitemap {
  /** The index's entries, in order. */
  index: SitemapUrl[];
  /** Each named sitemap's URLs, by the sitemap's address. */
  files: Map<string, SitemapUrl[]>;
}

type Parsed = Record<string, { '@xmlns'?: string; url?: SitemapUrl[]; sitemap?: SitemapUrl[] } | undefined>;

async function readXml(fetcher: (path: string) => Promise<Response>, path: string, root: 'urlset' | 'sitemapindex'): Promise<SitemapUrl[]> {
  const response = await fetcher(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type'), path).toBe('application/xml; charset=utf-8');
  const xml = await response.text();
  expect(XMLValidator.validate(xml), path).toBe(true);
  const document = (parser.parse(xml) as Parsed)[root];
  expect(document?.['@xmlns'], path).toBe(NAMESPACE);
  return (root === 'urlset' ? document?.url : document?.sitemap) ?? [];
}

export async function readSitemap(fetcher: (path: string) => Promise<Response>, baseUrl: string): Promise<ReadSitemap> {
  const index = await readXml(fetcher, '/sitemap.xml', 'sitemapindex');
  const files = new Map<string, SitemapUrl[]>();
  for (const entry of index) files.set(entry.loc, await readXml(fetcher, entry.loc.replace(baseUrl, ''), 'urlset'));
  return { index, files };
}

/** Every URL of every sitemap file, in order. */
export const allUrls = (sitemap: ReadSitemap): SitemapUrl[] => [...sitemap.files.values()].flat();
