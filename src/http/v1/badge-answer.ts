// How a badge is answered: badge-maker's SVG (it escapes every text it is given), a strong ETag
// of the exact bytes, a short public cache, and 304 with no body when If-None-Match names it.
// badge-maker (with its font-width tables, a large part of a bundle) is imported on the first
// badge: most requests to a process are not for one.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { BadgeSpec } from '../../domain/badge.ts';
import type { HttpEnv } from '../http-env.ts';

/** Five minutes: a README shows a new reproduction soon, and a popular badge costs one read per cache per 5 minutes. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300';

/**
 * An SVG opened on its own is a document: it may run nothing and load nothing, should a future
 * renderer ever emit more than shapes and text.
 */
export const BADGE_CSP = "default-src 'none'";

export async function badgeAnswer(c: Context<HttpEnv>, spec: BadgeSpec): Promise<Response> {
  const { makeBadge } = await import('badge-maker');
  const svg = makeBadge({ label: spec.label, message: spec.message, color: spec.color, style: 'flat' });
  const etag = `"${createHash('sha256').update(svg).digest('base64url')}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': BADGE_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': BADGE_CSP,
  };
  if (namesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  return c.body(svg, 200, { ...headers, 'Content-Type': 'image/svg+xml; charset=utf-8' });
}

/** If-None-Match compares weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`, and `*` matches any badge. */
function namesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
