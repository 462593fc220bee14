// The device flow (RFC 8628) for scripts and agent skills: start -> a person approves the user
// code on /device (signed in with Bluesky) -> the script's poll gets a lorebook bearer token,
// once. Twice-safety: a decision is conditioned on the request still pending (a double click
// decides once), and the approval is consumed in the transaction that creates the token, so
// concurrent polls after approval make ONE token; the others are told the code was used
// (`invalid_grant`): the token's plaintext is never stored, so it cannot be answered twice.

import { createHash } from 'node:crypto';
import {
  deriveDeviceCode,
  deviceCodeHash,
  isWellFormedDeviceCode,
  mintDeviceCode,
  mintSalt,
  mintUserCode,
} from '../../auth/device-codes.ts';
import { mintToken, tokenId } from '../../auth/token-secret.ts';
import { LorebookError } from '../../domain/errors.ts';
import { accountAcceptsCredential } from '../../store/identity/account/deletion-items.ts';
import {
  createDeviceItems,
  createDeviceStart,
  decideDevice,
  deviceKey,
  deviceStartKey,
  issueDevice,
  recordPoll,
  type StoredDevice,
  type StoredDeviceStart,
  toStoredDevice,
  toStoredDeviceStart,
  userCodeKey,
} from '../../store/identity/device-items.ts';
import { createTokenItems } from '../../store/identity/token-items.ts';
import { accountKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { epochSeconds } from '../../store/store.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

export const DEVICE_CODE_SECONDS = 10 * 60;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: every slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_SECONDS = 5;
/** Tokens from the device flow last 30 days; the person runs the flow again after that. */
export const DEVICE_TOKEN_SECONDS = 30 * 24 * 60 * 60;
/** A late poll is told expired_token (not "unknown") for a day after the codes expire. */
const EXPIRED_GRACE_SECONDS = 24 * 60 * 60;
const MAX_USER_CODE_DRAWS = 5;

export interface DeviceStart {
  device_code: string;
  user_code: string;
  expires_in: number;
  interval: number;
}

export type PollError = 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' | 'invalid_grant';

export type PollResult =
  | { kind: 'token'; access_token: string; token_id: string; account: string; expires_in: number }
  | { kind: 'error'; error: PollError; description: string };

/**
 * A new request. With an Idempotency-Key, a repeat of the same start (a lost answer, a retry, 16
 * at once) answers the first request again, device code included, and writes nothing: the code
 * is derived from the key, which only the caller holds (the store keeps its hash and a salt).
 */
export async function startDeviceAuthorization(
  ctx: AppContext,
  client: string,
  idempotencyKey?: string,
): Promise<DeviceStart & { replayed?: true }> {
  const keyHash = idempotencyKey === undefined ? undefined : createHash('sha256').update(idempotencyKey, 'utf8').digest('hex');
  for (let attempt = 1; attempt <= MAX_USER_CODE_DRAWS; attempt += 1) {
    const now = ctx.store.now();
    if (keyHash !== undefined && idempotencyKey !== undefined) {
      const stored = await readItem(ctx.store, deviceStartKey(keyHash));
      if (stored !== undefined) return replayStart(toStoredDeviceStart(stored), client, idempotencyKey);
    }
    const salt = mintSalt();
    const deviceCode = idempotencyKey === undefined ? mintDeviceCode() : deriveDeviceCode(idempotencyKey, salt);
    const device: StoredDevice = {
      device_hash: deviceCodeHash(deviceCode),
      user_code: mintUserCode(),
      client,
      status: 'pending',
      interval: DEVICE_POLL_INTERVAL_SECONDS,
      created_at: new Date(now).toISOString(),
      code_expires_at: epochSeconds(now) + DEVICE_CODE_SECONDS,
      expires_at: epochSeconds(now) + DEVICE_CODE_SECONDS + EXPIRED_GRACE_SECONDS,
    };
    const remembered =
      keyHash === undefined
        ? []
        : [
            createDeviceStart(
              {
                key_hash: keyHash,
                client,
                salt,
                user_code: device.user_code,
                created_at: device.created_at,
                expires_at: device.code_expires_at,
              },
              epochSeconds(now),
            ),
          ];
    try {
      await writeAtomically(ctx.store, [...createDeviceItems(device), ...remembered]);
      return {
        device_code: deviceCode,
        user_code: device.user_code,
        expires_in: DEVICE_CODE_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    } catch (error) {
      // The user code is taken by a live request (draw another), or a concurrent start with the
      // same key won (the re-read replays it).
      if (!(error instanceof WriteCancelled)) throw error;
    }
  }
  throw new LorebookError('conflict', 'Could not draw a free user code. Start again.', { retryAfterMs: 100 });
}

function replayStart(stored: StoredDeviceStart, client: string, idempotencyKey: string): DeviceStart & { replayed: true } {
  if (stored.client !== client) {
    throw new LorebookError(
      'idempotency_key_reused',
      `This Idempotency-Key already started a request for client_id "${stored.client}". Use a new key for a new request.`,
      {
        details: { client_id: stored.client },
      },
    );
  }
  return {
    device_code: deriveDeviceCode(idempotencyKey, stored.salt),
    user_code: stored.user_code,
    expires_in: DEVICE_CODE_SECONDS,
    interval: DEVICE_POLL_INTERVAL_SECONDS,
    replayed: true,
  };
}

/** The request behind a user code while it can still be decided, for the /device page. */
export async function findDeviceRequest(ctx: AppContext, userCode: string): Promise<StoredDevice | undefined> {
  const pointer = await readItem(ctx.store, userCodeKey(userCode));
  if (pointer === undefined) return undefined;
  const item = await readItem(ctx.store, deviceKey(String(pointer.device_hash)));
  if (item === undefined) return undefined;
  const device = toStoredDevice(item);
  return device.code_expires_at > epochSeconds(ctx.store.now()) ? device : undefined;
}

/** A person approves or denies; the same decision again by the same person answers the same and writes nothing. */
export async function decideDeviceAuthorization(
  ctx: AppContext,
  input: { account: string; userCode: string; decision: 'approved' | 'denied' },
): Promise<StoredDevice> {
  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const device = await findDeviceRequest(ctx, input.userCode);
    if (device === undefined) {
      throw new LorebookError(
        'not_found',
        `No sign-in request has the code ${input.userCode}, or it expired (codes last ${DEVICE_CODE_SECONDS / 60} minutes). Start again on the device.`,
        {
          details: { user_code: input.userCode },
        },
      );
    }
    if (device.status !== 'pending') {
      const same =
        device.account === input.account &&
        (device.status === input.decision || (device.status === 'issued' && input.decision === 'approved'));
      if (same) return device;
      throw new LorebookError(
        'conflict',
        `The code ${input.userCode} was already ${device.status === 'denied' ? 'denied' : 'approved'}. Start again on the device if that was not you.`,
        {
          retryable: false,
          details: { user_code: input.userCode, status: device.status },
        },
      );
    }
    try {
      await writeAtomically(ctx.store, [
        decideDevice(device.device_hash, input.decision, input.account, new Date(ctx.store.now()).toISOString()),
      ]);
      return { ...device, status: input.decision, account: input.account };
    } catch (error) {
      // Decided a moment ago (a double click): the re-read says how.
      if (!(error instanceof WriteCancelled)) throw error;
    }
  }
  throw new LorebookError('conflict', 'The request kept changing while it was being decided. Reload the page.', {
    retryAfterMs: ctx.config.conflictBackoffMs,
  });
}

export async function pollDeviceAuthorization(ctx: AppContext, input: { deviceCode: string; client?: string }): Promise<PollResult> {
  const fail = (error: PollError, description: string): PollResult => ({ kind: 'error', error, description });
  if (!isWellFormedDeviceCode(input.deviceCode))
    return fail('invalid_grant', 'device_code is not one lorebook issued (lbd_…). Start again with POST /v1/auth/device/start.');
  const hash = deviceCodeHash(input.deviceCode);
  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const now = ctx.store.now();
    const item = await readItem(ctx.store, deviceKey(hash));
    if (item === undefined)
      return fail('invalid_grant', 'This device_code is unknown (or expired long ago). Start again with POST /v1/auth/device/start.');
    const device = toStoredDevice(item);
    if (input.client !== undefined && input.client !== device.client)
      return fail('invalid_grant', `This device_code was issued to client_id "${device.client}", not "${input.client}".`);
    if (device.status === 'issued')
      return fail(
        'invalid_grant',
        'This device_code was already exchanged for a token (a token is issued once). Start again to get another.',
      );
    if (device.code_expires_at <= epochSeconds(now))
      return fail('expired_token', 'The codes expired before the person approved. Start again with POST /v1/auth/device/start.');
    if (device.status === 'denied')
      return fail('access_denied', 'The person denied this request. Do not retry; start again only if they ask you to.');
    try {
      if (device.status === 'approved' && device.account !== undefined) return await issue(ctx, device, now);
      const tooSoon = device.last_poll_at !== undefined && now - device.last_poll_at < device.interval * 1000;
      const interval = tooSoon ? device.interval + SLOW_DOWN_SECONDS : device.interval;
      await writeAtomically(ctx.store, [recordPoll(hash, device.last_poll_at, now, interval)]);
      return tooSoon
        ? fail('slow_down', `Polled sooner than the interval: wait ${interval} seconds between polls from now on.`)
        : fail('authorization_pending', `The person has not approved yet. Poll again in ${device.interval} seconds.`);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      // Another poll landed at the same moment: it was counted, this one was too soon.
      if (device.status === 'pending')
        return fail('slow_down', `Polled sooner than the interval: wait ${device.interval + SLOW_DOWN_SECONDS} seconds between polls.`);
      // An approval consumed by a concurrent poll: the re-read says it was issued.
    }
  }
  throw new LorebookError('conflict', 'Other polls kept landing at the same moment. Poll again after the interval.', {
    retryAfterMs: DEVICE_POLL_INTERVAL_SECONDS * 1000,
  });
}

/** The token and the consumed approval commit together: one approval, one token. */
async function issue(ctx: AppContext, device: StoredDevice, now: number): Promise<PollResult> {
  const token = mintToken();
  const id = tokenId(token);
  const at = new Date(now).toISOString();
  const account = device.account as string;
  try {
    await writeAtomically(ctx.store, [
      issueDevice(device.device_hash, id, at),
      ...createTokenItems({
        token_hash: id,
        account,
        client: device.client,
        created_at: at,
        expires_at: epochSeconds(now) + DEVICE_TOKEN_SECONDS,
      }),
      // An approval by an account deleted since (design.md#account-deletion) mints nothing.
      accountAcceptsCredential(account, device.created_at),
    ]);
  } catch (error) {
    if (error instanceof WriteCancelled && error.conditionFailedOn(accountKey(account)) !== undefined) {
      return {
        kind: 'error',
        error: 'access_denied',
        description: 'The account that approved this device was deleted. Start again and sign in.',
      };
    }
    throw error;
  }
  return { kind: 'token', access_token: token, token_id: id, account, expires_in: DEVICE_TOKEN_SECONDS };
}
