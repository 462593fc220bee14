// Refresh tokens: `REFRESH#<sha256> / META`. Rotation sets `rotated_at` conditioned on its
// absence in the same transaction that creates the successor, so one refresh token yields one
// successor; a rotated one is kept until its TTL so that presenting it again is recognised as
// reuse (and revokes the whole family) instead of looking unknown.
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export interface RefreshToken {
  refresh_hash: string;
  grant_id: string;
  account: string;
  client_id: string;
  client_name: string;
  resource: string;
  /** The granted scopes, space-separated (src/auth/oauth/scopes.ts); absent on items stored before scopes = every scope. */
  scope?: string;
  created_at: string;
  /** Epoch seconds (TTL). */
  expires_at: number;
  rotated_at?: string;
}

export const refreshKey = (refreshHash: string): ItemKey => ({ PK: `REFRESH#${refreshHash}`, SK: 'META' });

export function createRefreshToken(token: RefreshToken): PutAction {
  return createItem({ ...refreshKey(token.refresh_hash), ...token });
}

export function rotateRefreshToken(refreshHash: string, at: string): UpdateAction {
  return updateItem(
    refreshKey(refreshHash),
    { set: { rotated_at: at } },
    { expression: 'attribute_not_exists(#rotated)', names: { '#rotated': 'rotated_at' } },
  );
}

export function toRefreshToken(item: StoredItem): RefreshToken {
  return {
    refresh_hash: String(item.refresh_hash),
    grant_id: String(item.grant_id),
    account: String(item.account),
    client_id: String(item.client_id),
    client_name: String(item.client_name),
    resource: String(item.resource),
    ...(typeof item.scope === 'string' ? { scope: item.scope } : {}),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
    ...(typeof item.rotated_at === 'string' ? { rotated_at: item.rotated_at } : {}),
  };
}
