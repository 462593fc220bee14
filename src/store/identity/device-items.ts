// The device flow's items (RFC 8628): `DEVICE#<sha256 of the device code> / META` holds the
// request's status (pending -> approved | denied -> issued), and `USERCODE#<user code> / META`
// points from what a person types to it. Both are created together, once. `code_expires_at` is
// when the codes stop working; the TTL (`expires_at`) is a day later, so a late poll is still told
// `expired_token` rather than "unknown".
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem, replaceItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export type DeviceStatus = 'pending' | 'approved' | 'denied' | 'issued';

export interface StoredDevice {
  device_hash: string;
  user_code: string;
  /** Who the token will be for, as the script named itself (display only). */
  client: string;
  status: DeviceStatus;
  /** Set when a person approved or denied. */
  account?: string;
  /** Seconds a script must wait between polls; grows by 5 with every slow_down. */
  interval: number;
  /** Epoch ms of the last poll that was counted. */
  last_poll_at?: number;
  /** The id of the token issued for it, once. */
  token_id?: string;
  created_at: string;
  /** Epoch seconds: the codes stop working. */
  code_expires_at: number;
  /** Epoch seconds (the TTL attribute). */
  expires_at: number;
}

/**
 * A start sent with an Idempotency-Key: `DEVSTART#<sha256 of the key> / META` keeps what is needed
 * to answer a replay (the salt the device code was derived from with the key, never the code).
 */
export interface StoredDeviceStart {
  key_hash: string;
  client: string;
  /** base64url; the device code is HMAC-SHA256(key, salt), so only the key's holder can recompute it. */
  salt: string;
  user_code: string;
  created_at: string;
  /** Epoch seconds (the TTL attribute): the request's own expiry. */
  expires_at: number;
}

export const deviceStartKey = (keyHash: string): ItemKey => ({ PK: `DEVSTART#${keyHash}`, SK: 'META' });

/** Created with the request; a concurrent start with the same key fails here. An expired one may linger (TTL is late) and is replaced. */
export function createDeviceStart(start: StoredDeviceStart, nowSeconds: number): PutAction {
  return replaceItem(
    { ...deviceStartKey(start.key_hash), ...start },
    { expression: 'attribute_not_exists(PK) OR #exp <= :now', names: { '#exp': 'expires_at' }, values: { ':now': nowSeconds } },
  );
}

export function toStoredDeviceStart(item: StoredItem): StoredDeviceStart {
  return {
    key_hash: String(item.key_hash),
    client: String(item.client),
    salt: String(item.salt),
    user_code: String(item.user_code),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
  };
}

export const deviceKey = (deviceHash: string): ItemKey => ({ PK: `DEVICE#${deviceHash}`, SK: 'META' });
export const userCodeKey = (userCode: string): ItemKey => ({ PK: `USERCODE#${userCode}`, SK: 'META' });

/** Both items of a new request; a user code already in use fails its condition (a new one is drawn). */
export function createDeviceItems(device: StoredDevice): PutAction[] {
  return [
    createItem({ ...deviceKey(device.device_hash), ...device }),
    createItem({
      ...userCodeKey(device.user_code),
      user_code: device.user_code,
      device_hash: device.device_hash,
      expires_at: device.expires_at,
    }),
  ];
}

const whilePending = { expression: '#status = :pending', names: { '#status': 'status' }, values: { ':pending': 'pending' } };

/** A person's decision, once: a second decision (or a double click) finds it no longer pending. */
export function decideDevice(deviceHash: string, decision: 'approved' | 'denied', account: string, at: string): UpdateAction {
  return updateItem(deviceKey(deviceHash), { set: { status: decision, account, decided_at: at } }, whilePending);
}

/** Consumes an approval: exactly one poll moves it to issued, in the transaction that creates the token. */
export function issueDevice(deviceHash: string, tokenId: string, at: string): UpdateAction {
  return updateItem(
    deviceKey(deviceHash),
    { set: { status: 'issued', token_id: tokenId, issued_at: at } },
    { expression: '#status = :approved', names: { '#status': 'status' }, values: { ':approved': 'approved' } },
  );
}

/**
 * Records a poll (and, for a poll that came too soon, the longer interval), conditioned on the
 * last poll that was read: of concurrent polls only one is counted.
 */
export function recordPoll(deviceHash: string, readLastPollAt: number | undefined, now: number, interval: number): UpdateAction {
  const sameLastPoll =
    readLastPollAt === undefined
      ? { expression: 'attribute_not_exists(#last)', names: { '#last': 'last_poll_at' } }
      : { expression: '#last = :readLast', names: { '#last': 'last_poll_at' }, values: { ':readLast': readLastPollAt } };
  return updateItem(deviceKey(deviceHash), { set: { last_poll_at: now, interval } }, sameLastPoll);
}

export function toStoredDevice(item: StoredItem): StoredDevice {
  return {
    device_hash: String(item.device_hash),
    user_code: String(item.user_code),
    client: String(item.client),
    status: String(item.status) as DeviceStatus,
    ...(typeof item.account === 'string' ? { account: item.account } : {}),
    interval: Number(item.interval),
    ...(typeof item.last_poll_at === 'number' ? { last_poll_at: item.last_poll_at } : {}),
    ...(typeof item.token_id === 'string' ? { token_id: item.token_id } : {}),
    created_at: String(item.created_at),
    code_expires_at: Number(item.code_expires_at),
    expires_at: Number(item.expires_at),
  };
}
