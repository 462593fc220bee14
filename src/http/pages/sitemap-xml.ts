// The two documents of the sitemaps.org protocol (0.9): a urlset of pages and a sitemapindex of
// sitemaps. Every value is escaped, though slugs and handles are constrained where they are made:
// the base URL comes from a setting and a handle from the store.
import { xmlText } from './xml-text.ts';

export interface UrlEntry {
  loc: string;
  lastmod?: string | undefined;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const lastmodTag = (lastmod: string | undefined): string => (lastmod === undefined ? '' : `<lastmod>${xmlText(lastmod)}</lastmod>`);

export function urlsetXml(urls: readonly UrlEntry[]): string {
  const lines = urls.map((url) => `  <url><loc>${xmlText(url.loc)}</loc>${lastmodTag(url.lastmod)}</url>\n`);
  return `${XML_HEAD}\n<urlset xmlns="${NAMESPACE}">\n${lines.join('')}</urlset>\n`;
}

export function sitemapIndexXml(sitemaps: readonly UrlEntry[]): string {
  const lines = sitemaps.map((sitemap) => `  <sitemap><loc>${xmlText(sitemap.loc)}</loc>${lastmodTag(sitemap.lastmod)}</sitemap>\n`);
  return `${XML_HEAD}\n<sitemapindex xmlns="${NAMESPACE}">\n${lines.join('')}</sitemapindex>\n`;
}
