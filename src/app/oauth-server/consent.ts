// The consent step. Showing the page records the pending consent (keyed by a secret derived from
// the web session and the request, so a reload lands on the same record); answering it decides
// once. Approve creates one grant and one authorization code in the same transaction as the
// decision; a double click, or 16 parallel clicks, converge on that first decision and answer
// the same redirect with the same code. Deny redirects with `error=access_denied`.

import { authorizationCodeFor, consentSecretFor, grantIdFor, secretHash } from '../../auth/oauth/oauth-secrets.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { LorebookError } from '../../domain/errors.ts';
import { createAuthCode } from '../../store/identity/auth-code-items.ts';
import {
  type ConsentDecision,
  type ConsentRequest,
  consentKey,
  createConsent,
  decideConsent,
  toConsent,
} from '../../store/identity/consent-items.ts';
import { createGrant } from '../../store/identity/grant-items.ts';
import { pick } from '../../store/read-items.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext } from '../context/app-context.ts';
import { WEB_SESSION_SECONDS } from '../sign-in/web-session.ts';
import { type LoopPlan, writeLoop } from '../write/write-loop.ts';
import { type AuthorizeRequest, redirectWith } from './authorize-request.ts';

export interface SignedInPerson {
  account: string;
  handle: string;
  /** The raw web-session cookie value: never stored, only hashed or mixed into derived secrets. */
  sessionCookie: string;
}

export interface PendingConsent {
  /** Goes into the form; it is also the form's CSRF token. */
  consentSecret: string;
  consent: ConsentRequest;
}

export async function showConsent(
  ctx: AppContext,
  oauth: OAuthServer,
  person: SignedInPerson,
  request: AuthorizeRequest,
): Promise<PendingConsent> {
  const consentSecret = consentSecretFor(person.sessionCookie, {
    client_id: request.client.client_id,
    redirect_uri: request.redirect_uri,
    code_challenge: request.code_challenge,
    resource: request.resource,
    scope: request.scope,
    state: request.state,
  });
  const consentHash = secretHash(consentSecret);
  const consent = await writeLoop<ConsentRequest>(ctx, {
    reads: [consentKey(consentHash)],
    plan(read, { now }): LoopPlan<ConsentRequest> {
      const stored = pick(read, consentKey(consentHash));
      if (stored !== undefined) return { outcome: toConsent(stored), actions: [] };
      const fresh: ConsentRequest = {
        consent_hash: consentHash,
        account: person.account,
        session_hash: secretHash(person.sessionCookie),
        client_id: request.client.client_id,
        client_name: request.client.client_name,
        redirect_uri: request.redirect_uri,
        code_challenge: request.code_challenge,
        resource: request.resource,
        scope: request.scope,
        ...(request.state === undefined ? {} : { state: request.state }),
        created_at: new Date(now).toISOString(),
        expires_at: epochSeconds(now) + oauth.settings.consentSeconds,
      };
      return { outcome: fresh, actions: [createConsent(fresh, now)] };
    },
  });
  return { consentSecret, consent };
}

export interface ConsentAnswer {
  decision: ConsentDecision;
  /** Where the browser goes next: the client's redirect URI with `code` or `error`. */
  redirectTo: string;
}

export async function answerConsent(
  ctx: AppContext,
  oauth: OAuthServer,
  person: SignedInPerson,
  consentSecret: string,
  approve: boolean,
): Promise<ConsentAnswer> {
  const consentHash = secretHash(consentSecret);
  // Whether the plan that committed wrote the decision (false when it converged on an earlier one).
  let decidedNow = false;
  let clientName = '';
  const answer = await writeLoop<ConsentAnswer>(ctx, {
    reads: [consentKey(consentHash)],
    plan(read, { now }): LoopPlan<ConsentAnswer> {
      const stored = pick(read, consentKey(consentHash));
      // Another session's form (CSRF), or an expired one, is refused the same way: nothing is decided.
      if (stored === undefined || toConsent(stored).session_hash !== secretHash(person.sessionCookie)) throw consentGone();
      const consent = toConsent(stored);
      // Decided already (a double click, a parallel click): the first decision is the answer.
      decidedNow = consent.decision === undefined;
      clientName = consent.client_name;
      if (consent.decision !== undefined) return { outcome: answerOf(oauth, consent, consent.decision, consentSecret), actions: [] };
      const decision: ConsentDecision = approve ? 'approved' : 'denied';
      const outcome = answerOf(oauth, consent, decision, consentSecret);
      // The consent secret comes from the session cookie: once the session is over, nobody can reach this record again.
      const keepUntil = epochSeconds(now) + WEB_SESSION_SECONDS + oauth.settings.consentSeconds;
      if (!approve) return { outcome, actions: [decideConsent(consentHash, decision, keepUntil)] };
      const grantId = grantIdFor(consentSecret);
      // Until its code is exchanged a grant lives as long as the code; the exchange extends it.
      const grantExpiresAt = epochSeconds(now) + oauth.settings.authorizationCodeSeconds;
      return {
        outcome,
        actions: [
          decideConsent(consentHash, decision, keepUntil),
          ...createGrant({
            grant_id: grantId,
            account: consent.account,
            client_id: consent.client_id,
            client_name: consent.client_name,
            redirect_uri: consent.redirect_uri,
            resource: consent.resource,
            created_at: new Date(now).toISOString(),
            expires_at: grantExpiresAt,
          }),
          createAuthCode({
            code_hash: secretHash(authorizationCodeFor(consentSecret)),
            grant_id: grantId,
            account: consent.account,
            client_id: consent.client_id,
            client_name: consent.client_name,
            redirect_uri: consent.redirect_uri,
            code_challenge: consent.code_challenge,
            resource: consent.resource,
            ...(consent.scope === undefined ? {} : { scope: consent.scope }),
            expires_at: epochSeconds(now) + oauth.settings.authorizationCodeSeconds,
          }),
        ],
      };
    },
  });
  if (decidedNow) {
    oauth.log(
      answer.decision === 'approved'
        ? `lorebook: oauth consent approved: "${clientName}" (grant ${grantIdFor(consentSecret)}) may act as ${person.account} (@${person.handle})`
        : `lorebook: oauth consent denied: "${clientName}" for ${person.account} (@${person.handle})`,
    );
  }
  return answer;
}

function answerOf(oauth: OAuthServer, consent: ConsentRequest, decision: ConsentDecision, consentSecret: string): ConsentAnswer {
  const redirectTo =
    decision === 'approved'
      ? redirectWith(oauth, consent.redirect_uri, { code: authorizationCodeFor(consentSecret), state: consent.state })
      : redirectWith(oauth, consent.redirect_uri, {
          error: 'access_denied',
          error_description: 'The person declined to connect this app.',
          state: consent.state,
        });
  return { decision, redirectTo };
}

function consentGone(): LorebookError {
  return new LorebookError(
    'not_found',
    'This consent form has expired or belongs to another sign-in. Go back to the app and connect again.',
    {
      details: { reason: 'consent' },
    },
  );
}
