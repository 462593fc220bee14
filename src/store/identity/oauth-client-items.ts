// Dynamically registered OAuth clients (RFC 7591): `OAUTHCLIENT#<client_id> / META`. The
// client_id is derived from the registered metadata, so a second delivery of the same
// registration lands on the same key (create once; an expired one may be replaced). A client
// starts with a short TTL; its first completed authorization (a code exchanged for tokens) marks
// it authorized and moves its TTL to the long one, and every refresh keeps it there.
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { replaceItem } from '../replace-by-key.ts';
import { epochSeconds } from '../store.ts';
import { updateItem } from '../update-item.ts';

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  /** Epoch seconds. */
  client_id_issued_at: number;
  /** Epoch seconds (TTL). */
  expires_at: number;
  /** ISO time of the first code exchanged for tokens; absent while the client never completed an authorization. */
  authorized_at?: string;
}

/**
 * A client as the authorize, token and revocation steps see it, whichever way it introduced
 * itself: a registered OAuthClient, or one described by the document at its client_id URL.
 */
export type KnownClient = Pick<OAuthClient, 'client_id' | 'client_name' | 'redirect_uris' | 'grant_types'> & {
  /** Described by the document at its client_id URL, not registered: nothing of it is stored. */
  metadata_document?: true;
};

export const oauthClientKey = (clientId: string): ItemKey => ({ PK: `OAUTHCLIENT#${clientId}`, SK: 'META' });

/** Creates the client unless a live one holds the key (a lingering expired item may be replaced). */
export function registerOAuthClient(client: OAuthClient, nowMs: number): PutAction {
  return replaceItem(
    { ...oauthClientKey(client.client_id), ...client },
    { expression: 'attribute_not_exists(PK) OR expires_at <= :now', values: { ':now': epochSeconds(nowMs) } },
  );
}

/** In the transaction that issues the client tokens: it is authorized, and kept until `expiresAt`. */
export function keepAuthorizedClient(clientId: string, nowMs: number, expiresAt: number): UpdateAction {
  return updateItem(oauthClientKey(clientId), {
    set: { expires_at: expiresAt },
    setClauses: ['#authorized_at = if_not_exists(#authorized_at, :authorized_at)'],
    names: { '#authorized_at': 'authorized_at' },
    values: { ':authorized_at': new Date(nowMs).toISOString() },
  });
}

export function toOAuthClient(item: StoredItem): OAuthClient {
  return {
    client_id: String(item.client_id),
    client_name: String(item.client_name),
    redirect_uris: (item.redirect_uris as unknown[]).map(String),
    grant_types: (item.grant_types as unknown[]).map(String),
    client_id_issued_at: Number(item.client_id_issued_at),
    expires_at: Number(item.expires_at),
    ...(typeof item.authorized_at === 'string' ? { authorized_at: item.authorized_at } : {}),
  };
}
