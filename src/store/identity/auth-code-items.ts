// Authorization codes: `AUTHCODE#<sha256 of the code> / META`. Single use: the exchange sets
// `consumed_at` conditioned on its absence, in the same transaction that creates the tokens, so
// two exchanges of one code cannot both mint; the consumed item stays until its TTL so a replay
// is recognised (and revokes what the code issued) rather than looking unknown.
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export interface AuthorizationCode {
  code_hash: string;
  grant_id: string;
  account: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  /** The granted scopes, space-separated (src/auth/oauth/scopes.ts); absent on items stored before scopes = every scope. */
  scope?: string;
  /** Epoch seconds (TTL). */
  expires_at: number;
  consumed_at?: string;
}

export const authCodeKey = (codeHash: string): ItemKey => ({ PK: `AUTHCODE#${codeHash}`, SK: 'META' });

export function createAuthCode(code: AuthorizationCode): PutAction {
  return createItem({ ...authCodeKey(code.code_hash), ...code });
}

export function consumeAuthCode(codeHash: string, at: string): UpdateAction {
  return updateItem(
    authCodeKey(codeHash),
    { set: { consumed_at: at } },
    { expression: 'attribute_not_exists(#consumed)', names: { '#consumed': 'consumed_at' } },
  );
}

export function toAuthCode(item: StoredItem): AuthorizationCode {
  return {
    code_hash: String(item.code_hash),
    grant_id: String(item.grant_id),
    account: String(item.account),
    client_id: String(item.client_id),
    client_name: String(item.client_name),
    redirect_uri: String(item.redirect_uri),
    code_challenge: String(item.code_challenge),
    resource: String(item.resource),
    ...(typeof item.scope === 'string' ? { scope: item.scope } : {}),
    expires_at: Number(item.expires_at),
    ...(typeof item.consumed_at === 'string' ? { consumed_at: item.consumed_at } : {}),
  };
}
