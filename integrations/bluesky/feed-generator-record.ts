// The feed records of lorebook's feed generator (`app.bsky.feed.generator`) on the publishing
// account: what makes each feed appear on Bluesky. Each is written at a stable record key and
// only ever conditionally — created with createRecord (a second create at the key fails) or replaced with
// putRecord swapping the CID that was read — then re-read and re-planned when the condition
// fails. So running the publish twice, or several at once, leaves one record, and a record that
// already says what we would write is left alone (same CID, no new commit).
import { Agent, CredentialSession } from '@atproto/api';
import { FEED_GENERATOR_COLLECTION } from '../../src/domain/feed-generator.ts';
import { boundedFetch } from './bounded-fetch.ts';

export interface FeedRecordContent {
  /** The feed generator service: did:web of lorebook's public host. */
  did: string;
  /** At most 24 graphemes (the lexicon's limit). */
  displayName: string;
  /** At most 300 graphemes. */
  description: string;
  /** The feed takes show more / show less through app.bsky.feed.sendInteractions. */
  acceptsInteractions: boolean;
}

export interface FeedPublisher {
  service: string;
  identifier: string;
  appPassword: string;
  requestTimeoutMs: number;
}

export type FeedPublishOutcome = 'created' | 'updated' | 'unchanged';

export interface PublishedFeed {
  outcome: FeedPublishOutcome;
  uri: string;
  cid: string;
  /** The account holding the record: set BLUESKY_FEED_PUBLISHER_DID to it. */
  publisherDid: string;
}

/** Create or replace attempts when another publish keeps winning the condition. */
const MAX_ATTEMPTS = 4;

interface Existing {
  cid: string;
  value: Record<string, unknown>;
}

const sameContent = (value: Record<string, unknown>, content: FeedRecordContent): boolean =>
  value.did === content.did &&
  value.displayName === content.displayName &&
  value.description === content.description &&
  (value.acceptsInteractions ?? false) === content.acceptsInteractions;

/** A signed-in publisher for one account's feed records: several feeds cost one sign-in. */
export interface FeedRecordPublisher {
  /** The account holding the records. */
  repo: string;
  publish(rkey: string, content: FeedRecordContent): Promise<PublishedFeed>;
}

export async function publishFeedRecord(
  publisher: FeedPublisher,
  rkey: string,
  content: FeedRecordContent,
  log: (line: string) => void = () => {},
  now: () => number = Date.now,
): Promise<PublishedFeed> {
  return (await openFeedRecordPublisher(publisher, log, now)).publish(rkey, content);
}

export async function openFeedRecordPublisher(
  publisher: FeedPublisher,
  log: (line: string) => void = () => {},
  now: () => number = Date.now,
): Promise<FeedRecordPublisher> {
  const session = new CredentialSession(new URL(publisher.service), boundedFetch(publisher.requestTimeoutMs));
  log(`signing in to ${publisher.service} as ${publisher.identifier}`);
  await session.login({ identifier: publisher.identifier, password: publisher.appPassword });
  const agent = new Agent(session);
  const repo = session.did as string;

  const publish = async (rkey: string, content: FeedRecordContent): Promise<PublishedFeed> => {
    const where = { repo, collection: FEED_GENERATOR_COLLECTION, rkey };
    const read = async (): Promise<Existing | undefined> => {
      try {
        const { data } = await agent.com.atproto.repo.getRecord(where);
        return { cid: data.cid as string, value: data.value as Record<string, unknown> };
      } catch (error) {
        if ((error as { error?: string }).error === 'RecordNotFound') return undefined;
        throw error;
      }
    };

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const existing = await read();
      if (existing !== undefined && sameContent(existing.value, content)) {
        return { outcome: 'unchanged', uri: `at://${repo}/${FEED_GENERATOR_COLLECTION}/${rkey}`, cid: existing.cid, publisherDid: repo };
      }
      // The first publish time stays: an update changes what the feed says, not when it began.
      const createdAt = typeof existing?.value.createdAt === 'string' ? existing.value.createdAt : new Date(now()).toISOString();
      const record = { $type: FEED_GENERATOR_COLLECTION, ...content, createdAt };
      try {
        const { data } =
          existing === undefined
            ? await agent.com.atproto.repo.createRecord({ ...where, record, validate: true })
            : await agent.com.atproto.repo.putRecord({ ...where, record, validate: true, swapRecord: existing.cid });
        return { outcome: existing === undefined ? 'created' : 'updated', uri: data.uri, cid: data.cid, publisherDid: repo };
      } catch (error) {
        // Lost a race (a record appeared at the key, or the one we read was replaced): read again.
        const after = await read();
        if (after?.cid === existing?.cid) throw error;
        log(`the record ${rkey} changed while publishing (attempt ${attempt}); reading it again`);
      }
    }
    throw new Error(`the feed record at ${rkey} kept changing while publishing; run the command again`);
  };
  return { repo, publish };
}
