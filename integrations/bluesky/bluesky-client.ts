// The Bluesky side of announcing (docs/design.md#write-rules): a CredentialSession + Agent signed in with an app
// password on first use and reused; an expired access token is refreshed by the session itself.
// Every HTTP call is bounded (boundedFetch) and goes over a connection of its own
// (freshConnectionFetch). A refused app password is remembered: later calls fail at once instead
// of signing in again and again (a retry storm would only get the account rate limited or locked).
// A sign-in in flight is shared only while it is young: one that has been waiting longer may be
// stuck on a connection an outage killed, and a later caller starts its own instead of inheriting
// its timeout. Each sign-in has a session object of its own, so a stuck one that fails late can
// never clear the session a later one made.
import { Agent, CredentialSession, type RichText } from '@atproto/api';
import { AnnounceFailure, type AnnouncePort, type ExistingPost, type StoryPost } from '../../src/outbox/announce/port.ts';
import type { DocumentPort } from '../../src/outbox/document-port.ts';
import { boundedFetch } from './bounded-fetch.ts';
import { isSessionRefused, type Step, toAnnounceFailure } from './failures.ts';
import { freshConnectionFetch } from './fresh-connection.ts';
import { linksOf, POST_COLLECTION, postRecord } from './post-record.ts';
import { storyRecordKey } from './record-key.ts';
import { standardSitePort } from './standard-site-port.ts';

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
  now?: () => number;
}

export interface BlueskyClient extends AnnouncePort {
  /** The signed-in account's DID (signs in when needed). */
  did(): Promise<string>;
  /** The standard.site publication and documents on the same account, through the same session (design.md#standard-site). */
  documents: DocumentPort;
}

/**
 * A password check takes a few hundred milliseconds on a healthy PDS: callers arriving within this
 * window share one sign-in (a burst of publishes signs in once); a sign-in older than this is
 * presumed stuck, and a new caller signs in afresh.
 */
export const SHARE_SIGN_IN_MS = 2_000;

interface SignedIn {
  did: string;
  agent: Agent;
  /** Loses its tokens when a refresh is refused: then it is signed in afresh. */
  session: CredentialSession;
}

interface SignIn {
  startedAt: number;
  done: Promise<SignedIn>;
}

export function createBlueskyClient(options: BlueskyOptions): BlueskyClient {
  const fetchOnce = boundedFetch(options.requestTimeoutMs, freshConnectionFetch(options.fetch));
  const where = `${options.service} as ${options.identifier}`;
  const now = options.now ?? Date.now;
  let current: SignedIn | undefined;
  let signingIn: SignIn | undefined;
  let refused: AnnounceFailure | undefined;

  const call = async <T>(step: Step, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      // The PDS refused our tokens and the session could not refresh them: sign in afresh.
      if (step !== 'sign-in' && isSessionRefused(error)) current = undefined;
      throw toAnnounceFailure(error, step, where, now);
    }
  };

  const signIn = (): Promise<SignedIn> =>
    call('sign-in', async () => {
      const session = new CredentialSession(new URL(options.service), fetchOnce);
      await session.login({ identifier: options.identifier, password: options.appPassword });
      const signedIn = { did: session.did as string, agent: new Agent(session), session };
      current = signedIn;
      return signedIn;
    });

  /** The signed-in session, signing in when there is none; callers share a sign-in only while it is young. */
  const session = async (): Promise<SignedIn> => {
    if (refused !== undefined) throw refused;
    if (current?.session.hasSession === true) return current;
    const startedAt = performance.now();
    let shared = signingIn;
    if (shared === undefined || startedAt - shared.startedAt > SHARE_SIGN_IN_MS) {
      const attempt: SignIn = { startedAt, done: signIn() };
      shared = attempt;
      signingIn = attempt;
      // Settled either way, it is no longer in flight (a newer one may have replaced it already).
      void attempt.done
        .catch(() => undefined)
        .finally(() => {
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
  const resolverFor = (agent: Agent) => ({ detect: (text: RichText) => text.detectFacets(agent) });

  return {
    describe: where,
    did: async () => (await session()).did,
    documents: standardSitePort({ session, call, signal }),
    async find(post: Pick<StoryPost, 'slug' | 'publishedAt'>): Promise<ExistingPost | undefined> {
      const { did: repo, agent } = await session();
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
      const { did: repo, agent } = await session();
      const thumb =
        post.thumb === undefined
          ? undefined
          : (
              await call('upload', () =>
                agent.uploadBlob(post.thumb?.data as Uint8Array, { encoding: post.thumb?.mimeType, signal: signal() }),
              )
            ).data.blob;
      const record = await call('post', () => postRecord(post, resolverFor(agent), new Date(now()).toISOString(), thumb));
      const rkey = storyRecordKey(post.slug, post.publishedAt);
      const { data } = await call('post', () =>
        agent.com.atproto.repo.createRecord({ repo, collection: POST_COLLECTION, rkey, record, validate: true }, { signal: signal() }),
      );
      return { uri: data.uri };
    },
    async remove(post) {
      const { did: repo, agent } = await session();
      const rkey = storyRecordKey(post.slug, post.publishedAt);
      await call('delete', () => agent.com.atproto.repo.deleteRecord({ repo, collection: POST_COLLECTION, rkey }, { signal: signal() }));
    },
  };
}
