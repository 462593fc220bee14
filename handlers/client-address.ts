// Whose request it is, for the anonymous rate limit, behind the optional CloudFront distribution
// (infra/distribution.ts). CloudFront sets CloudFront-Viewer-Address (the viewer's ip:port) and
// sends the origin secret in x-lorebook-origin-secret. Anyone may also call the Function URL
// directly and send both headers, so the viewer address is believed only beside a secret the
// function accepts; otherwise the address is the connection's source IP, which no header changes.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export const ORIGIN_SECRET_HEADER = 'x-lorebook-origin-secret';
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

export interface AddressHeaders {
  /** x-lorebook-origin-secret as received. */
  originSecret: string | undefined;
  /** CloudFront-Viewer-Address as received: `198.51.100.7:46532`, `2001:db8::7:46532`. */
  viewerAddress: string | undefined;
}

/** The viewer's address when the headers come from CloudFront, else the source IP. */
export function clientAddress(headers: AddressHeaders, sourceIp: string | undefined, accepted: readonly string[]): string | undefined {
  if (headers.originSecret === undefined || !accepted.some((secret) => sameSecret(headers.originSecret as string, secret))) return sourceIp;
  return viewerIp(headers.viewerAddress) ?? sourceIp;
}

/** The IP of `ip:port` (IPv6 without brackets, as CloudFront writes it), or undefined when it is not one. */
export function viewerIp(header: string | undefined): string | undefined {
  const colon = header?.lastIndexOf(':') ?? -1;
  if (header === undefined || colon < 1) return undefined;
  const ip = header.slice(0, colon).trim();
  return isIP(ip) === 0 ? undefined : ip;
}

/** Compared in constant time (digests of equal length), so the answer's timing tells nothing of the secret. */
function sameSecret(received: string, secret: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return secret !== '' && timingSafeEqual(digest(received), digest(secret));
}
