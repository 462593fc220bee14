// Pending Bluesky sign-ins (the atproto OAuth client's state store): `OAUTHSTATE#<sha256 of the
// state> / META`, from /auth/login until the callback, with a short TTL. The state is single-use:
// the callback *consumes* it with one conditional update, so a replayed or double-clicked
// callback finds it used and can never exchange the code or make a session a second time. The
// secrets (DPoP key, PKCE verifier) are removed once consumed; the `used_at` marker and the
// app state (where to go next) stay until the TTL, so a replay can be told what happened.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { epochSeconds, isExpired, type Store } from '../store.ts';
import { storeUnavailable } from '../store-unavailable.ts';
import { updateItem } from '../update-item.ts';

export interface StoredOAuthState {
  state_hash: string;
  /** The client's saved state as JSON (DPoP key, PKCE verifier, issuer); absent once used. */
  state_data?: string;
  /** What lorebook asked the client to carry through the flow (JSON), kept after use. */
  app_state?: string;
  created_at: string;
  /** ISO time the callback consumed it; absent while pending. */
  used_at?: string;
  /** Epoch seconds (the TTL attribute). */
  expires_at: number;
}

export const oauthStateKey = (stateHash: string): ItemKey => ({ PK: `OAUTHSTATE#${stateHash}`, SK: 'META' });

/** Created once per authorization request (the state is 32 random bytes, never reused). */
export function createOAuthState(state: StoredOAuthState): PutAction {
  return createItem({ ...oauthStateKey(state.state_hash), ...state });
}

/** Drops the secrets of a consumed state; the marker stays until the TTL. */
export function forgetOAuthStateSecrets(stateHash: string): UpdateAction {
  return updateItem(oauthStateKey(stateHash), { remove: ['state_data'] });
}

export function toStoredOAuthState(item: StoredItem): StoredOAuthState {
  return {
    state_hash: String(item.state_hash),
    ...(typeof item.state_data === 'string' ? { state_data: item.state_data } : {}),
    ...(typeof item.app_state === 'string' ? { app_state: item.app_state } : {}),
    created_at: String(item.created_at),
    ...(typeof item.used_at === 'string' ? { used_at: item.used_at } : {}),
    expires_at: Number(item.expires_at),
  };
}

/** The SDK input that consumes a pending, unexpired state; pure, so the condition is unit-tested. */
export function consumeOAuthStateParams(
  tableName: string,
  stateHash: string,
  nowMs: number,
): ConstructorParameters<typeof UpdateCommand>[0] {
  return {
    TableName: tableName,
    Key: oauthStateKey(stateHash),
    UpdateExpression: 'SET #used = :now',
    // Exists, not used yet (the second delivery stops here), and not past its TTL (DynamoDB
    // deletes late, so an expired state may still be stored).
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#used) AND #exp > :nowSeconds',
    ExpressionAttributeNames: { '#used': 'used_at', '#exp': 'expires_at' },
    ExpressionAttributeValues: { ':now': new Date(nowMs).toISOString(), ':nowSeconds': epochSeconds(nowMs) },
    ReturnValues: 'ALL_NEW',
  };
}

/**
 * Marks the state used and returns it, or undefined when it is unknown, expired or already used:
 * of any number of concurrent callbacks with one state, exactly one gets it.
 */
export async function consumeOAuthState(store: Store, stateHash: string): Promise<StoredOAuthState | undefined> {
  try {
    const output = await store.client.send(new UpdateCommand(consumeOAuthStateParams(store.tableName, stateHash, store.now())));
    const item = output.Attributes as StoredItem | undefined;
    return item === undefined || isExpired(item, store.now()) ? undefined : toStoredOAuthState(item);
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
    throw storeUnavailable(error) ?? error;
  }
}
