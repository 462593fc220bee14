// A pending consent: `CONSENT#<sha256 of the consent secret> / META`, written when the consent
// page is shown. The secret sits only in the page's form (it is the form's CSRF token), and the
// grant id and authorization code are derived from it, so a double-clicked Approve recomputes the
// same grant and code instead of minting a second one. `decision` is set once, conditioned.
import type { PutAction, StoredItem, UpdateAction } from './actions.ts';
import type { ItemKey } from './keys.ts';
import { createItem } from './replace-by-key.ts';
import { updateItem } from './update-item.ts';

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
  created_at: string;
  /** Epoch seconds (TTL). */
  expires_at: number;
  decision?: ConsentDecision;
}

export const consentKey = (consentHash: string): ItemKey => ({ PK: `CONSENT#${consentHash}`, SK: 'META' });

export function createConsent(consent: ConsentRequest): PutAction {
  return createItem({ ...consentKey(consent.consent_hash), ...consent });
}

/** Decides once: the second decision (a double click, or Deny after Approve) fails here. */
export function decideConsent(consentHash: string, decision: ConsentDecision): UpdateAction {
  return updateItem(consentKey(consentHash), { set: { decision } }, { expression: 'attribute_not_exists(#decision)', names: { '#decision': 'decision' } });
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
    ...(typeof item.state === 'string' ? { state: item.state } : {}),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
    ...(item.decision === 'approved' || item.decision === 'denied' ? { decision: item.decision } : {}),
  };
}
