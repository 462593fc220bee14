// The atproto OAuth client's two stores, on the lorebook table. The state store's `get` consumes
// (the client calls get then del once per callback): a replayed callback gets nothing and the
// client refuses it as an unknown authorization session, before any call to the PDS.
import { createHash } from 'node:crypto';
import type { NodeSavedSession, NodeSavedSessionStore, NodeSavedState, NodeSavedStateStore } from '@atproto/oauth-client-node';
import {
  blueskySessionKey,
  deleteBlueskySession,
  putBlueskySession,
  toStoredBlueskySession,
} from '../../store/identity/bluesky-session-items.ts';
import {
  consumeOAuthState,
  createOAuthState,
  forgetOAuthStateSecrets,
  oauthStateKey,
  type StoredOAuthState,
  toStoredOAuthState,
} from '../../store/identity/oauth-state-items.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { epochSeconds } from '../../store/store.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

/** A person has this long between /auth/login and the callback (the PDS's own request lives 5 min). */
export const SIGN_IN_STATE_SECONDS = 10 * 60;
/** PDS tokens are kept only through the callback; this bounds an item a crash left behind. */
export const BLUESKY_SESSION_SECONDS = 60 * 60;

export const oauthStateHash = (state: string): string => createHash('sha256').update(state, 'utf8').digest('hex');

export function createStateStore(ctx: AppContext): NodeSavedStateStore {
  return {
    async set(state, value) {
      const now = ctx.store.now();
      const { appState, ...secrets } = value;
      await writeAtomically(ctx.store, [
        createOAuthState({
          state_hash: oauthStateHash(state),
          state_data: JSON.stringify(secrets),
          ...(appState === undefined ? {} : { app_state: appState }),
          created_at: new Date(now).toISOString(),
          expires_at: epochSeconds(now) + SIGN_IN_STATE_SECONDS,
        }),
      ]);
    },
    async get(state) {
      const consumed = await consumeOAuthState(ctx.store, oauthStateHash(state));
      if (consumed?.state_data === undefined) return undefined;
      const secrets = JSON.parse(consumed.state_data) as Omit<NodeSavedState, 'appState'>;
      return consumed.app_state === undefined ? secrets : { ...secrets, appState: consumed.app_state };
    },
    async del(state) {
      try {
        await writeAtomically(ctx.store, [forgetOAuthStateSecrets(oauthStateHash(state))]);
      } catch (error) {
        // Already gone (the TTL ran): nothing left to forget.
        if (!(error instanceof WriteCancelled)) throw error;
      }
    },
  };
}

/** The stored state of a sign-in, consumed or not, to tell a replayed callback what happened. */
export async function readSignInState(ctx: AppContext, state: string): Promise<StoredOAuthState | undefined> {
  const item = await readItem(ctx.store, oauthStateKey(oauthStateHash(state)));
  return item === undefined ? undefined : toStoredOAuthState(item);
}

export function createSessionStore(ctx: AppContext): NodeSavedSessionStore {
  return {
    async set(did, value) {
      const now = ctx.store.now();
      await writeAtomically(ctx.store, [
        putBlueskySession({
          did,
          session_data: JSON.stringify(value),
          updated_at: new Date(now).toISOString(),
          expires_at: epochSeconds(now) + BLUESKY_SESSION_SECONDS,
        }),
      ]);
    },
    async get(did) {
      const item = await readItem(ctx.store, blueskySessionKey(did));
      return item === undefined ? undefined : (JSON.parse(toStoredBlueskySession(item).session_data) as NodeSavedSession);
    },
    async del(did) {
      await writeAtomically(ctx.store, [deleteBlueskySession(did)]);
    },
  };
}
