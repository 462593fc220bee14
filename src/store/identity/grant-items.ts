// A grant: one consent of one account to one client, and the family of tokens minted from it.
//   `GRANT#<id> / META`            the grant (revoked_at once revoked: every mint is conditioned on its absence)
//   `GRANT#<id> / TOKEN#<hash>`    a member access token, `GRANT#<id> / REFRESH#<hash>` a member refresh token,
//                                  so revoking the family finds every token it minted with one query
//   `ACCOUNT#<acct> / GRANT#<id>`  the account page's list of connected clients
// Every item carries `expires_at`; a refresh moves the grant's forward.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeleteAction, PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { Condition } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { KEY } from '../schema.ts';
import { isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { updateItem } from '../update-item.ts';

export interface Grant {
  grant_id: string;
  account: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  resource: string;
  created_at: string;
  /** Epoch seconds (TTL). */
  expires_at: number;
  revoked_at?: string;
}

export type GrantMemberKind = 'TOKEN' | 'REFRESH';

export interface GrantMember {
  kind: GrantMemberKind;
  hash: string;
  /** The account the token belongs to, so an access token's listing on the account is found without a read. */
  account: string;
}

export const grantKey = (grantId: string): ItemKey => ({ PK: `GRANT#${grantId}`, SK: 'META' });
export const accountGrantKey = (account: string, grantId: string): ItemKey => ({ PK: `ACCOUNT#${account}`, SK: `GRANT#${grantId}` });
export const grantMemberKey = (grantId: string, member: Pick<GrantMember, 'kind' | 'hash'>): ItemKey => ({
  PK: `GRANT#${grantId}`,
  SK: `${member.kind}#${member.hash}`,
});

const notRevoked: Condition = { expression: 'attribute_not_exists(#revoked)', names: { '#revoked': 'revoked_at' } };

function listing(grant: Grant): Record<string, unknown> {
  const { revoked_at: _revoked, ...fields } = grant;
  return fields;
}

/** The grant and its listing on the account, created once. */
export function createGrant(grant: Grant): PutAction[] {
  return [
    createItem({ ...grantKey(grant.grant_id), ...listing(grant) }),
    createItem({ ...accountGrantKey(grant.account, grant.grant_id), ...listing(grant) }),
  ];
}

/**
 * Every mint extends the family to its newest refresh token's expiry, conditioned on the grant not
 * being revoked: a revoked family mints nothing more.
 */
export function extendGrant(grant: Pick<Grant, 'grant_id' | 'account'>, expiresAt: number): UpdateAction[] {
  return [
    updateItem(grantKey(grant.grant_id), { set: { expires_at: expiresAt } }, notRevoked),
    updateItem(accountGrantKey(grant.account, grant.grant_id), { set: { expires_at: expiresAt } }),
  ];
}

/** Step one of revoking: from here on no token can be minted from the grant. */
export function markGrantRevoked(grantId: string, at: string): UpdateAction {
  return updateItem(grantKey(grantId), { set: { revoked_at: at } });
}

export function addGrantMember(grantId: string, member: GrantMember, expiresAt: number): PutAction {
  return createItem({
    ...grantMemberKey(grantId, member),
    kind: member.kind,
    hash: member.hash,
    account: member.account,
    expires_at: expiresAt,
  });
}

/** Unconditioned deletes: revoking is idempotent, a second sweep deletes nothing new. */
export function deleteGrantItems(grant: Pick<Grant, 'grant_id' | 'account'>): DeleteAction[] {
  return [{ Delete: { Key: grantKey(grant.grant_id) } }, { Delete: { Key: accountGrantKey(grant.account, grant.grant_id) } }];
}

export function toGrant(item: StoredItem): Grant {
  return {
    grant_id: String(item.grant_id),
    account: String(item.account),
    client_id: String(item.client_id),
    client_name: String(item.client_name),
    redirect_uri: String(item.redirect_uri),
    resource: String(item.resource),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
    ...(typeof item.revoked_at === 'string' ? { revoked_at: item.revoked_at } : {}),
  };
}

/** Every item of a partition, or those whose sort key starts with `prefix`. */
async function queryAll(store: Store, pk: string, prefix?: string): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const output = await callStore(() =>
      store.client.send(
        new QueryCommand({
          TableName: store.tableName,
          ...(prefix === undefined
            ? {
                KeyConditionExpression: '#pk = :pk',
                ExpressionAttributeNames: { '#pk': KEY.partition },
                ExpressionAttributeValues: { ':pk': pk },
              }
            : {
                KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
                ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
                ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
              }),
          ConsistentRead: true,
          ...(after === undefined ? {} : { ExclusiveStartKey: after }),
        }),
      ),
    );
    items.push(...((output.Items ?? []) as StoredItem[]));
    after = output.LastEvaluatedKey;
  } while (after !== undefined);
  return items;
}

/** Every token the grant minted, expired ones included (revoking deletes them all). */
export async function queryGrantMembers(store: Store, grantId: string): Promise<GrantMember[]> {
  const items = await queryAll(store, `GRANT#${grantId}`);
  return items
    .filter((item) => item.SK !== 'META')
    .map((item) => ({ kind: String(item.kind) as GrantMemberKind, hash: String(item.hash), account: String(item.account) }));
}

/** The account's live grants (connected clients), newest first. */
export async function queryAccountGrants(store: Store, account: string): Promise<Grant[]> {
  const items = await queryAll(store, `ACCOUNT#${account}`, 'GRANT#');
  return items
    .filter((item) => !isExpired(item, store.now()))
    .map(toGrant)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.grant_id.localeCompare(b.grant_id));
}
