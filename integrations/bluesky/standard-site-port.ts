// The standard.site side of the Bluesky client (docs/design.md#standard-site): the publication and the
// stories' documents on the announcing account, each at a key of its own that never changes.
// Every write is putRecord conditioned on what was read at the key — `swapRecord: null` (nothing
// there) to create, the CID read to replace — so a lost answer, a retry or two workers can never
// make a second record or replace a newer one unseen; a refused swap is read again and compared.
// A record that already says what would be written is left alone: no write, the same CID.
import { isDeepStrictEqual } from 'node:util';
import type { Agent } from '@atproto/api';
import { AnnounceFailure, type StoryPost } from '../../src/outbox/announce/port.ts';
import type { DocumentPort, DocumentWrite, RecordRef } from '../../src/outbox/document-port.ts';
import type { Step } from './failures.ts';
import { POST_COLLECTION } from './post-record.ts';
import { storyRecordKey } from './record-key.ts';
import {
  assertValidStandardSiteRecord,
  DOCUMENT_COLLECTION,
  InvalidStandardSiteRecord,
  PUBLICATION_COLLECTION,
} from './standard-site-lexicons.ts';
import { documentRecord, documentRevision, isDocumentOf, publicationRecord, publicationRecordKey } from './standard-site-records.ts';

export interface SignedInAgent {
  did: string;
  agent: Agent;
}

export interface StandardSiteDeps {
  session(): Promise<SignedInAgent>;
  /** Runs one call, turning its failure into an AnnounceFailure. */
  call<T>(step: Step, run: () => Promise<T>): Promise<T>;
  signal(): AbortSignal;
}

type Collection = typeof PUBLICATION_COLLECTION | typeof DOCUMENT_COLLECTION;

interface Found {
  uri: string;
  cid: string;
  value: unknown;
}

/** Reads and swaps when another writer keeps changing the record in between. */
const MAX_SWAPS = 4;

const isInvalidSwap = (error: unknown): boolean => (error as { error?: unknown }).error === 'InvalidSwap';

export function standardSitePort(deps: StandardSiteDeps): DocumentPort {
  const read = async (step: Step, collection: string, rkey: string): Promise<Found | undefined> => {
    const { did: repo, agent } = await deps.session();
    return deps.call(step, async () => {
      try {
        const { data } = await agent.com.atproto.repo.getRecord({ repo, collection, rkey }, { signal: deps.signal() });
        return { uri: data.uri, cid: data.cid as string, value: data.value };
      } catch (error) {
        if ((error as { error?: string }).error === 'RecordNotFound') return undefined;
        throw error;
      }
    });
  };

  /**
   * Makes the record at the key equal `record`; `ours` says whether a different record there may
   * be replaced, `later` whether it is newer than ours (then it is left as it is).
   */
  const converge = async (
    step: Step,
    collection: Collection,
    rkey: string,
    record: Record<string, unknown>,
    ours: (value: unknown) => boolean,
    later: (value: unknown) => boolean = () => false,
  ): Promise<DocumentWrite> => {
    try {
      assertValidStandardSiteRecord(collection, record);
    } catch (error) {
      if (error instanceof InvalidStandardSiteRecord) throw new AnnounceFailure('rejected', `${step}: ${error.message}`, { cause: error });
      throw error;
    }
    const { did: repo, agent } = await deps.session();
    for (let attempt = 1; attempt <= MAX_SWAPS; attempt += 1) {
      const existing = await read(step, collection, rkey);
      if (existing !== undefined && isDeepStrictEqual(existing.value, record))
        return { uri: existing.uri, cid: existing.cid, outcome: 'unchanged' };
      if (existing !== undefined && !ours(existing.value)) {
        throw new AnnounceFailure(
          'rejected',
          `${step}: ${existing.uri} holds a record lorebook did not write there; it is never overwritten`,
        );
      }
      if (existing !== undefined && later(existing.value)) return { uri: existing.uri, cid: existing.cid, outcome: 'superseded' };
      const written = await deps.call(step, async () => {
        try {
          const { data } = await agent.com.atproto.repo.putRecord(
            { repo, collection, rkey, record, swapRecord: existing?.cid ?? null },
            { signal: deps.signal() },
          );
          return { uri: data.uri, cid: data.cid };
        } catch (error) {
          // Another writer got there between our read and our write: read again and compare.
          if (isInvalidSwap(error)) return undefined;
          throw error;
        }
      });
      if (written !== undefined) return { ...written, outcome: existing === undefined ? 'created' : 'updated' };
    }
    throw new AnnounceFailure('server', `${step}: the record at ${collection}/${rkey} kept changing while lorebook wrote it`);
  };

  const documentKey = (post: Pick<StoryPost, 'slug' | 'publishedAt'>): string => storyRecordKey(post.slug, post.publishedAt);

  return {
    async publication(content): Promise<RecordRef> {
      const { uri, cid } = await converge(
        'publication',
        PUBLICATION_COLLECTION,
        publicationRecordKey(content.url),
        publicationRecord(content),
        (value) => (value as { url?: unknown }).url === content.url,
      );
      return { uri, cid };
    },
    async postRef(post) {
      const found = await read('look-up', POST_COLLECTION, storyRecordKey(post.slug, post.publishedAt));
      return found === undefined ? undefined : { uri: found.uri, cid: found.cid };
    },
    write: (document, site, post) =>
      converge(
        'document',
        DOCUMENT_COLLECTION,
        documentKey(document),
        documentRecord(document, site, post),
        (value) => isDocumentOf(value, document.slug),
        (value) => documentRevision(value) > document.revision,
      ),
    async remove(post) {
      const { did: repo, agent } = await deps.session();
      await deps.call('document', () =>
        agent.com.atproto.repo.deleteRecord({ repo, collection: DOCUMENT_COLLECTION, rkey: documentKey(post) }, { signal: deps.signal() }),
      );
    },
  };
}
