// A pending consent: `CONSENT#<sha256 of the consent secret> / META`, written when the consent
// page is shown. The secret sits only in the page's form (it is the form's CSRF token), and the
// grant id and authorization code are derived from it, so a double-clicked Approve recomputes the
// same grant and code instead of minting a second one. `decision` is set once, conditioned.
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { replaceItem } from '../replace-by-key.ts';
import { epochSeconds } from '../store.ts';
import { updateItem } from '../update-item.ts';

export type ConsentDecision = 'approved' | 'denied';

export interface ConsentRequest {
  consent_hash: string;
  account: string;
  /** sha256 of the web-session cookie the page was shown to: another session cannot answer it. */
  session_hash: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  state?: string;
  /** The granted scopes, space-separated (src/auth/oauth/scopes.ts); absent on items stored before scopes = every scope. */
  scope?: string;
  created_at: string;
  /** Epoch seconds (TTL). */
  expires_at: number;
  decision?: ConsentDecision;
}

export const consentKey = (consentHash: string): ItemKey => ({ PK: `CONSENT#${consentHash}`, SK: 'META' });

/** Created once; an expired one that DynamoDB has not deleted yet may be replaced (it is absent to every read). */
export function createConsent(consent: ConsentRequest, nowMs: number): PutAction {
  return replaceItem(
    { ...consentKey(consent.consent_hash), ...consent },
    { expression: 'attribute_not_exists(PK) OR expires_at <= :now', values: { ':now': epochSeconds(nowMs) } },
  );
}

/**
 * Decides once: the second decision (a double click, or Deny after Approve) fails here. A decided
 * consent is kept as long as the web session it belongs to could still reload the page
 * (`keepUntil`), so a reload converges on the decision instead of meeting the grant it created.
 */
export function decideConsent(consentHash: string, decision: ConsentDecision, keepUntil: number): UpdateAction {
  return updateItem(
    consentKey(consentHash),
    { set: { decision, expires_at: keepUntil } },
    { expression: 'attribute_not_exists(#decision)', names: { '#decision': 'decision' } },
  );
}

export function toConsent(item: StoredItem): ConsentRequest {
  return {
    consent_hash: String(item.consent_hash),
    account: String(item.account),
    session_hash: String(item.session_hash),
    client_id: String(item.client_id),
    client_name: String(item.client_name),
    redirect_uri: String(item.redirect_uri),
    code_challenge: String(item.code_challenge),
    resource: String(item.resource),
    ...(typeof item.scope === 'string' ? { scope: item.scope } : {}),
    ...(typeof item.state === 'string' ? { state: item.state } : {}),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
    ...(item.decision === 'approved' || item.decision === 'denied' ? { decision: item.decision } : {}),
  };
}
