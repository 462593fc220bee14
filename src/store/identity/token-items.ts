// Bearer tokens (docs/design.md#data): `TOKEN#<sha256> / META` answers "whose token is this" in one read,
// and `ACCOUNT#<id> / TOKEN#<sha256>` lists an account's tokens. Both are keyed by the hash (the
// plaintext is never stored) and written or deleted together in one transaction. `expires_at` is
// the TTL; reads drop expired items themselves because DynamoDB deletes them days late.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DeleteAction, PutAction, StoredItem } from '../actions.ts';
import { itemExists } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { createItem, deleteItemIf } from '../replace-by-key.ts';
import { KEY } from '../schema.ts';
import { isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export interface StoredToken {
  /** sha256 hex of the plaintext token; also the token's public id. */
  token_hash: string;
  account: string;
  client?: string;
  created_at: string;
  /** Epoch seconds (the TTL attribute). */
  expires_at: number;
  /** OAuth access tokens only: the resource the token is bound to (RFC 8707); others are valid for every resource. */
  resource?: string;
  /** OAuth access tokens only: the grant (family) that minted it, and the client it was issued to. */
  grant_id?: string;
  client_id?: string;
  /** OAuth access tokens only: the granted scopes, space-separated (src/auth/oauth/scopes.ts); absent = every scope. */
  scope?: string;
}

const TOKEN_PREFIX = 'TOKEN#';

export const tokenKey = (tokenHash: string): ItemKey => ({ PK: `${TOKEN_PREFIX}${tokenHash}`, SK: 'META' });
export const accountTokenKey = (account: string, tokenHash: string): ItemKey => ({
  PK: `ACCOUNT#${account}`,
  SK: `${TOKEN_PREFIX}${tokenHash}`,
});

function tokenFields(token: StoredToken): Record<string, unknown> {
  return {
    token_hash: token.token_hash,
    account: token.account,
    ...(token.client === undefined ? {} : { client: token.client }),
    created_at: token.created_at,
    expires_at: token.expires_at,
    ...(token.resource === undefined ? {} : { resource: token.resource }),
    ...(token.grant_id === undefined ? {} : { grant_id: token.grant_id }),
    ...(token.client_id === undefined ? {} : { client_id: token.client_id }),
    ...(token.scope === undefined ? {} : { scope: token.scope }),
  };
}

/**
 * Both items of a new token. Created with attribute_not_exists: the key is the hash of 32 random
 * bytes, so a second delivery of the same create fails instead of writing a second row.
 */
export function createTokenItems(token: StoredToken): PutAction[] {
  return [
    createItem({ ...tokenKey(token.token_hash), ...tokenFields(token) }),
    createItem({ ...accountTokenKey(token.account, token.token_hash), ...tokenFields(token) }),
  ];
}

/** Deletes both items, conditioned on them still existing: the second revoke finds nothing. */
export function deleteTokenItems(token: Pick<StoredToken, 'token_hash' | 'account'>): DeleteAction[] {
  return [deleteItemIf(tokenKey(token.token_hash), itemExists), deleteItemIf(accountTokenKey(token.account, token.token_hash), itemExists)];
}

export function toStoredToken(item: StoredItem): StoredToken {
  return {
    token_hash: String(item.token_hash),
    account: String(item.account),
    ...(typeof item.client === 'string' ? { client: item.client } : {}),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
    ...(typeof item.resource === 'string' ? { resource: item.resource } : {}),
    ...(typeof item.grant_id === 'string' ? { grant_id: item.grant_id } : {}),
    ...(typeof item.client_id === 'string' ? { client_id: item.client_id } : {}),
    ...(typeof item.scope === 'string' ? { scope: item.scope } : {}),
  };
}

/** The SDK input of one page of an account's tokens; pure, so the key condition is unit-tested. */
export function accountTokensQueryParams(tableName: string, account: string, after?: Record<string, unknown>): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
    ExpressionAttributeValues: { ':pk': `ACCOUNT#${account}`, ':prefix': TOKEN_PREFIX },
    // Consistent: a token created or revoked a moment ago is listed as it is now.
    ConsistentRead: true,
    ...(after === undefined ? {} : { ExclusiveStartKey: after }),
  };
}

/** Every live token of the account, oldest first (all pages; an account holds a handful). */
export async function queryAccountTokens(store: Store, account: string): Promise<StoredToken[]> {
  const tokens: StoredToken[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const output = await callStore(() => store.client.send(new QueryCommand(accountTokensQueryParams(store.tableName, account, after))));
    for (const item of (output.Items ?? []) as StoredItem[]) {
      if (!isExpired(item, store.now())) tokens.push(toStoredToken(item));
    }
    after = output.LastEvaluatedKey;
  } while (after !== undefined);
  return tokens.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.token_hash.localeCompare(b.token_hash));
}
