// No lorebook page may be shown inside another site's frame: the consent, device and account
// pages carry Approve, Deny and Revoke buttons, and a framing page could trick a click onto them
// (clickjacking). One middleware sets both headers on every HTML answer, whichever route or error
// handler built it: `X-Frame-Options: DENY` for older browsers, CSP `frame-ancestors 'none'` for
// the rest (added to the page's own policy when it has one).
import type { MiddlewareHandler } from 'hono';

export const FRAME_ANCESTORS = "frame-ancestors 'none'";

const isHtml = (contentType: string | null): boolean => /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType ?? '');

/** The policy with its frame-ancestors directive (if any) replaced by `frame-ancestors 'none'`. */
export function withFrameAncestorsNone(policy: string | null): string {
  const directives = (policy ?? '')
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^frame-ancestors(\s|$)/i.test(directive));
  return [...directives, FRAME_ANCESTORS].join('; ');
}

export const denyFraming: MiddlewareHandler = async (c, next) => {
  await next();
  if (!isHtml(c.res.headers.get('content-type'))) return;
  c.res.headers.set('X-Frame-Options', 'DENY');
  c.res.headers.set('Content-Security-Policy', withFrameAncestorsNone(c.res.headers.get('content-security-policy')));
};
