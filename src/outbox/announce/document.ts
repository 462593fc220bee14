// The document path (docs/design.md#standard-site): one claimed, fenced attempt to make a listed, posted
// story's standard.site document show its current revision. The claim is taken from the recorded
// post (one worker at a time works on a story's Bluesky side) at the revision read, so an edit in
// between refuses it; the port looks the document's key up first and writes only by swapping what
// it read there. Every ending puts the post back on the marker.
import { randomUUID } from 'node:crypto';
import { handlesFor } from '../../app/account/accounts.ts';
import type { AppContext } from '../../app/context/app-context.ts';
import { storyPath } from '../../app/story-content/content-write.ts';
import { revealForbiddenChars } from '../../domain/text-controls.ts';
import { bodyKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { recordPostStillOwed } from '../../store/story/announce/items.ts';
import { claimDocument, finishDocument, giveUpDocument, recordDocument, retryDocumentLater } from '../../store/story/document-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { StoryDocument } from '../document-port.ts';
import { plainTextOffloaded } from '../plain-text-task.ts';
import type { AnnounceDocuments, Announcer } from './announcer.ts';
import { writeFenced, writeIfStillSo } from './fenced-write.ts';
import { type AnnounceResult, done, type Step } from './outcome.ts';
import { AnnounceFailure } from './port.ts';
import { publicationOf } from './publication.ts';
import { retryTime } from './settings.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

export async function documentOnce(
  ctx: AppContext,
  announcer: Announcer,
  documents: AnnounceDocuments,
  meta: StoryMeta,
  now: number,
  posted: string,
): Promise<Step> {
  const { settings } = announcer;
  const slug = meta.slug;
  const document = await storyDocument(ctx, meta);
  // The body moved past the META read: an edit landed in between; look again.
  if (document === undefined) return { result: { slug, outcome: 'not_owed' }, again: true };
  const claimId = randomUUID();
  const claim = claimDocument({
    slug,
    claimId,
    claimedAt: iso(now),
    staleAt: iso(now + settings.staleClaimMs),
    posted,
    revision: meta.revision,
  });
  if (!(await writeIfStillSo(ctx.store, [claim]))) return done({ slug, outcome: 'held_elsewhere' });
  const attempt = (meta.announce.doc_attempts ?? 0) + 1;
  const fenced = async (write: Parameters<typeof writeFenced>[1], result: AnnounceResult) => {
    const settled = await writeFenced(ctx.store, write, result);
    if (settled.outcome === 'lost_claim')
      announcer.log(`announce ${slug}: our claim was taken over before we could record the document; the new holder looks again`);
    return settled;
  };

  try {
    const site = await publicationOf(ctx, documents);
    const post = await documents.port.postRef({ slug, publishedAt: meta.published_at });
    if (post === undefined) announcer.log(`announce ${slug}: no post at ${posted} any more; the document is written without bskyPostRef`);
    // A worker paused for most of its claim must not write: its claim may be taken over at any moment.
    if (ctx.store.now() - now > settings.staleClaimMs / 2) {
      throw new AnnounceFailure('timeout', 'the attempt ran out of its claim time before writing the document');
    }
    const written = await documents.port.write(document, site, post);
    const record = { uri: written.uri, cid: written.cid, revision: meta.revision };
    const result: AnnounceResult = { slug, outcome: 'documented', uri: posted, document: written.uri, attempt };
    if (await writeIfStillSo(ctx.store, [finishDocument(slug, claimId, posted, record)])) {
      announcer.log(`announce ${slug}: document ${written.outcome} ${written.uri} (revision ${meta.revision})`);
      return done(result);
    }
    // Edited, hidden or made private while we wrote: recorded, and looked at again.
    const recorded = await fenced([recordDocument(slug, claimId, posted, record, iso(ctx.store.now()))], result);
    return { result: recorded, again: recorded.outcome !== 'lost_claim' };
  } catch (error) {
    if (!(error instanceof AnnounceFailure)) throw error;
    if (error.permanent || attempt >= settings.maxAttempts) {
      const reason = `the document was not written: ${error.message}`;
      const result: AnnounceResult = { slug, outcome: 'failed', attempt, error: reason, failure: error };
      if (await writeIfStillSo(ctx.store, [giveUpDocument(slug, claimId, posted, reason)])) {
        announcer.log(`announce ${slug}: DOCUMENT FAILED after attempt ${attempt}: ${reason}`);
        return done(result);
      }
      // Unlisted meanwhile: the post (and any document) is deleted next.
      const owed = await fenced([recordPostStillOwed(slug, claimId, posted, iso(ctx.store.now()))], result);
      return { result: owed, again: owed.outcome !== 'lost_claim' };
    }
    const next = retryTime(settings, attempt, error, ctx.random(), ctx.store.now());
    const result = await fenced([retryDocumentLater(slug, claimId, posted, next, error.message)], {
      slug,
      outcome: 'retry_later',
      attempt,
      next_attempt_at: next,
      error: error.message,
      failure: error,
    });
    if (result.outcome === 'retry_later')
      announcer.log(`announce ${slug}: writing the document failed (${error.message}); next try at ${next}`);
    return done(result);
  }
}

/** The document of the story at the revision META was read at, or undefined when BODY is at another one. */
async function storyDocument(ctx: AppContext, meta: StoryMeta): Promise<StoryDocument | undefined> {
  const [body, handles] = await Promise.all([readItem(ctx.store, bodyKey(meta.slug)), handlesFor(ctx, [meta.author])]);
  if (body === undefined || body.revision !== meta.revision || typeof body.markdown !== 'string') return undefined;
  const { counts } = meta;
  return {
    slug: meta.slug,
    publishedAt: meta.published_at,
    revision: meta.revision,
    // Only a real edit moves updatedAt: the revision's own time, the same on every attempt.
    ...(meta.revision > 1 ? { updatedAt: meta.updated_at } : {}),
    // Text stored before a character was refused is published with it made visible (design.md#untrusted-text).
    title: revealForbiddenChars(meta.title),
    summary: revealForbiddenChars(meta.summary),
    tags: meta.tags.map(revealForbiddenChars),
    path: storyPath(meta.slug),
    markdown: revealForbiddenChars(body.markdown),
    textContent: await plainTextOffloaded(revealForbiddenChars(body.markdown), ctx),
    // Accounts that signed in with Bluesky are their DID (design.md#data); others have no DID to give.
    author: { handle: handles.get(meta.author) ?? meta.author, ...(meta.author.startsWith('did:') ? { did: meta.author } : {}) },
    type: meta.type,
    status: meta.status,
    counts: {
      worked: counts.worked,
      partial: counts.partial,
      failed: counts.failed,
      hasProblem: counts.has_problem,
      noProblem: counts.no_problem,
    },
  };
}
