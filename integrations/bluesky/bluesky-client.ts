// The Bluesky side of announcing (design §4): one CredentialSession + Agent per process, signed
// in with an app password on first use and reused; an expired access token is refreshed by the
// session itself. Every HTTP call is bounded (boundedFetch) and goes over a connection of its own
// (freshConnectionFetch). A refused app password is remembered: later calls fail at once instead
// of signing in again and again (a retry storm would only get the account rate limited or locked).
// A sign-in in flight is shared only while it is young: one that has been waiting longer may be
// stuck on a connection an outage killed, and a later attempt starts its own instead of inheriting
// its timeout.
import { Agent, CredentialSession, type RichText } from '@atproto/api';
import { AnnounceFailure, type AnnouncePort, type ExistingPost, type StoryPost } from '../../src/outbox/announce-port.ts';
import { boundedFetch } from './bounded-fetch.ts';
import { freshConnectionFetch } from './fresh-connection.ts';
import { isSessionRefused, toAnnounceFailure, type Step } from './failures.ts';
import { POST_COLLECTION, linksOf, postRecord } from './post-record.ts';
import { storyRecordKey } from './record-key.ts';

export interface BlueskyOptions {
  /** The PDS or entryway, e.g. https://bsky.social. */
  service: string;
  /** Handle or DID of the account that posts. */
  identifier: string;
  appPassword: string;
  /** The longest any one HTTP call may take. */
  requestTimeoutMs: number;
  /** For tests; default globalThis.fetch. */
  fetch?: typeof fetch;
  /** How long a sign-in in flight is shared with new callers (default SHARE_SIGN_IN_MS). */
  shareSignInMs?: number;
  now?: () => number;
}

export interface BlueskyClient extends AnnouncePort {
  /** The signed-in account's DID (signs in when needed). */
  did(): Promise<string>;
}

/**
 * A password check takes a few hundred milliseconds on a healthy PDS: callers arriving within this
 * window share one sign-in (a burst of publishes signs in once); a sign-in older than this is
 * presumed stuck, and a new caller signs in afresh.
 */
export const SHARE_SIGN_IN_MS = 2_000;

interface SignIn {
  startedAt: number;
  done: Promise<string>;
}

export function createBlueskyClient(options: BlueskyOptions): BlueskyClient {
  const session = new CredentialSession(new URL(options.service), boundedFetch(options.requestTimeoutMs, freshConnectionFetch(options.fetch)));
  const agent = new Agent(session);
  const where = `${options.service} as ${options.identifier}`;
  const now = options.now ?? Date.now;
  const shareSignInMs = options.shareSignInMs ?? SHARE_SIGN_IN_MS;
  let signingIn: SignIn | undefined;
  let refused: AnnounceFailure | undefined;
  /** The PDS refused our tokens and the session could not refresh them: sign in afresh. */
  let stale = false;

  const call = async <T>(step: Step, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (step !== 'sign-in' && isSessionRefused(error)) stale = true;
      throw toAnnounceFailure(error, step, where, now);
    }
  };

  const signIn = (): Promise<string> =>
    call('sign-in', async () => {
      stale = false;
      try {
        await session.login({ identifier: options.identifier, password: options.appPassword });
      } catch (error) {
        // A later sign-in may have overtaken this stuck one and succeeded: its session serves.
        if (session.did !== undefined && session.hasSession && !stale) return session.did;
        throw error;
      }
      return session.did as string;
    });

  /** Signs in when there is no usable session; callers share a sign-in only while it is young. */
  const did = async (): Promise<string> => {
    if (refused !== undefined) throw refused;
    if (session.did !== undefined && session.hasSession && !stale) return session.did;
    const startedAt = performance.now();
    let shared = signingIn;
    if (shared === undefined || startedAt - shared.startedAt > shareSignInMs) {
      const attempt: SignIn = { startedAt, done: signIn() };
      shared = attempt;
      signingIn = attempt;
      // Settled either way, it is no longer in flight (a newer one may have replaced it already).
      void attempt.done.catch(() => undefined).finally(() => {
        if (signingIn === attempt) signingIn = undefined;
      });
    }
    try {
      return await shared.done;
    } catch (error) {
      if (error instanceof AnnounceFailure && error.kind === 'credentials') refused = error;
      throw error;
    }
  };

  const signal = (): AbortSignal => AbortSignal.timeout(options.requestTimeoutMs);
  const resolver = { detect: (text: RichText) => text.detectFacets(agent) };

  return {
    describe: where,
    did,
    async find(post: Pick<StoryPost, 'slug' | 'publishedAt'>): Promise<ExistingPost | undefined> {
      const repo = await did();
      const rkey = storyRecordKey(post.slug, post.publishedAt);
      return call('look-up', async () => {
        try {
          const { data } = await agent.com.atproto.repo.getRecord({ repo, collection: POST_COLLECTION, rkey }, { signal: signal() });
          return { uri: data.uri, links: linksOf(data.value) };
        } catch (error) {
          if ((error as { error?: string }).error === 'RecordNotFound') return undefined;
          throw error;
        }
      });
    },
    async create(post: StoryPost): Promise<{ uri: string }> {
      const repo = await did();
      const thumb =
        post.thumb === undefined
          ? undefined
          : (await call('upload', () => agent.uploadBlob(post.thumb?.data as Uint8Array, { encoding: post.thumb?.mimeType, signal: signal() }))).data.blob;
      const record = await call('post', () => postRecord(post, resolver, new Date(now()).toISOString(), thumb));
      const rkey = storyRecordKey(post.slug, post.publishedAt);
      const { data } = await call('post', () =>
        agent.com.atproto.repo.createRecord({ repo, collection: POST_COLLECTION, rkey, record, validate: true }, { signal: signal() }),
      );
      return { uri: data.uri };
    },
    async remove(post) {
      const repo = await did();
      const rkey = storyRecordKey(post.slug, post.publishedAt);
      await call('delete', () => agent.com.atproto.repo.deleteRecord({ repo, collection: POST_COLLECTION, rkey }, { signal: signal() }));
    },
  };
}
