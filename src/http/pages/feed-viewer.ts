// Who is asking, for the feed generator: the viewer's DID from the service-auth JWT Bluesky sends
// as `Authorization: Bearer …` (checked in src/domain/service-auth/service-jwt.ts against the
// signing key of its `iss`). No header: an anonymous request; a header that does not check out is
// refused, never read as anonymous. A DID document fetched to check it is paid for by the
// request's address first (`spend`, design.md#admission): the DID is the stranger's word until it checks out.
import type { SigningKeyResolver } from '../../../integrations/bluesky/did-signing-key.ts';
import type { SpendFetch } from '../../app/context/outbound-budget.ts';
import { LorebookError } from '../../domain/errors.ts';
import { serviceDid } from '../../domain/feed-generator.ts';
import { type ServiceAuthClaims, verifyServiceJwt } from '../../domain/service-auth/service-jwt.ts';

export type FeedViewer = (authorization: string | undefined, method: string, spend: SpendFetch) => Promise<ServiceAuthClaims | undefined>;

export function feedViewer(baseUrl: string, resolver: SigningKeyResolver, now: () => number): FeedViewer {
  const audience = serviceDid(baseUrl);
  return async (authorization, method, spend) => {
    if (authorization === undefined) return undefined;
    const token = /^Bearer ([A-Za-z0-9._-]+)$/.exec(authorization)?.[1];
    if (token === undefined) {
      throw new LorebookError('unauthenticated', 'Send the service-auth JWT as "Authorization: Bearer <jwt>".', {
        details: { reason: 'BadJwt' },
      });
    }
    return verifyServiceJwt(token, {
      audience,
      method,
      nowMs: now(),
      signingKey: (did, forceRefresh) => resolver(did, forceRefresh, spend),
    });
  };
}
