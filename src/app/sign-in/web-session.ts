// The web session: which person a browser is signed in as. The cookie holds 32 random bytes; the
// store keeps only their sha256 (WEBSESS#<hash>), with a TTL. The handle is resolved from the
// account on every read, never copied onto the session, so it follows handle changes.
import { createHash, randomBytes } from 'node:crypto';
import { parse } from 'hono/utils/cookie';
import { webSessionIndexItem } from '../../store/identity/account/index-items.ts';
import { createWebSession, deleteWebSession, toStoredWebSession, webSessionKey } from '../../store/identity/web-session-items.ts';
import { accountKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { epochSeconds } from '../../store/store.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import { credentialStands } from '../caller/account-standing.ts';
import type { AppContext } from '../context/app-context.ts';

export const WEB_SESSION_COOKIE = 'lorebook_session';
/** How long a sign-in lasts in a browser before the person signs in again. */
export const WEB_SESSION_SECONDS = 14 * 24 * 60 * 60;

const SESSION_PREFIX = 'lbs_';
/** 32 bytes of base64url without padding are 43 characters. */
const SESSION_SHAPE = /^lbs_[A-Za-z0-9_-]{43}$/;

export interface WebSession {
  accountId: string;
  handle: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface StartedWebSession {
  /** The cookie value: given to the browser once, never stored. */
  cookieValue: string;
  expiresAt: number;
}

const sessionHash = (cookieValue: string): string => createHash('sha256').update(cookieValue, 'utf8').digest('hex');

/** The session cookie's value in a Cookie header, when it has the shape of one (no read otherwise). */
export function webSessionCookieValue(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined || cookieHeader === '') return undefined;
  const value = parse(cookieHeader, WEB_SESSION_COOKIE)[WEB_SESSION_COOKIE];
  return value !== undefined && SESSION_SHAPE.test(value) ? value : undefined;
}

/** The signed-in person of a request, from its Cookie header; undefined when none/expired/unknown. */
export async function readWebSession(ctx: AppContext, cookieHeader: string | undefined): Promise<WebSession | undefined> {
  const value = webSessionCookieValue(cookieHeader);
  if (value === undefined) return undefined;
  // The read filters expired items against the store clock.
  const item = await readItem(ctx.store, webSessionKey(sessionHash(value)));
  if (item === undefined) return undefined;
  const stored = toStoredWebSession(item);
  const account = await readItem(ctx.store, accountKey(stored.account));
  // A session of an account being deleted or deleted is no session (design.md#account-deletion): signed out.
  if (!credentialStands(account, stored.created_at)) return undefined;
  const handle = account === undefined ? stored.account : String(account.handle);
  return { accountId: stored.account, handle, expiresAt: stored.expires_at * 1000 };
}

/** A new session for the account: one conditional put of a fresh random key. */
export async function startWebSession(ctx: AppContext, accountId: string): Promise<StartedWebSession> {
  const now = ctx.store.now();
  const cookieValue = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = epochSeconds(now) + WEB_SESSION_SECONDS;
  const hash = sessionHash(cookieValue);
  await writeAtomically(ctx.store, [
    createWebSession({ session_hash: hash, account: accountId, created_at: new Date(now).toISOString(), expires_at: expiresAt }),
    // Where account deletion finds the session again (design.md#account-deletion).
    webSessionIndexItem(accountId, hash, expiresAt),
  ]);
  return { cookieValue, expiresAt: expiresAt * 1000 };
}

/** Signs the browser out: deletes its session. A second logout (or none signed in) writes nothing and is fine. */
export async function endWebSession(ctx: AppContext, cookieHeader: string | undefined): Promise<{ ended: boolean }> {
  const value = webSessionCookieValue(cookieHeader);
  if (value === undefined) return { ended: false };
  const key = webSessionKey(sessionHash(value));
  if ((await readItem(ctx.store, key)) === undefined) return { ended: false };
  try {
    await writeAtomically(ctx.store, [deleteWebSession(sessionHash(value))]);
    return { ended: true };
  } catch (error) {
    // A concurrent logout deleted it first: the browser is signed out either way.
    if (error instanceof WriteCancelled) return { ended: false };
    throw error;
  }
}
