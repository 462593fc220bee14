import { describe, expect, it } from 'vitest';
import { type AnnounceFacts, nextStep } from '../../../../src/outbox/announce/next-step.ts';

const NOW = Date.parse('2026-12-01T10:00:00.000Z');
const STALE_CLAIM_MS = 60_000;
const rules = { staleClaimMs: STALE_CLAIM_MS };
const iso = (ms: number): string => new Date(ms).toISOString();
const STALE_BEFORE = iso(NOW - STALE_CLAIM_MS);
const POST = 'at://did:plc:lorebook/app.bsky.feed.post/3kabc';

type FactOverrides = Partial<Pick<AnnounceFacts, 'visibility' | 'hidden' | 'revision'> & AnnounceFacts['announce']>;

/** A public, shown story on the queue, never tried, at revision 1. */
const facts = ({ visibility = 'public', hidden = false, revision = 1, ...announce }: FactOverrides = {}): AnnounceFacts => ({
  visibility,
  hidden,
  revision,
  announce: { queued: true, ...announce },
});

describe('nextStep: off the queue, nothing is owed', () => {
  it('a story not on the queue is settled', () => {
    expect(nextStep(facts({ queued: false }), NOW, rules)).toEqual({ kind: 'settled' });
  });
  it('a story not on the queue with a post is settled and names the post', () => {
    expect(nextStep(facts({ queued: false, bsky_uri: POST }), NOW, rules)).toEqual({ kind: 'settled', posted: POST });
  });
  it('a marker that is not a post (a claim left behind) is never named as the post', () => {
    expect(nextStep(facts({ queued: false, bsky_uri: 'pending' }), NOW, rules)).toEqual({ kind: 'settled' });
  });
  it('off the queue wins over a due retry and a stale claim', () => {
    const meta = facts({ queued: false, bsky_uri: 'pending', claimed_at: iso(NOW - 10 * STALE_CLAIM_MS), next_attempt_at: iso(NOW - 1) });
    expect(nextStep(meta, NOW, rules)).toEqual({ kind: 'settled' });
  });
});

describe('nextStep: a claim another worker holds is left to it until it is stale', () => {
  it('a live claim is held elsewhere', () => {
    expect(nextStep(facts({ bsky_uri: 'pending', claimed_at: iso(NOW - 1_000) }), NOW, rules)).toEqual({ kind: 'held_elsewhere' });
  });
  it('a claim with no claim time is held elsewhere (never taken over blindly)', () => {
    expect(nextStep(facts({ bsky_uri: 'pending' }), NOW, rules)).toEqual({ kind: 'held_elsewhere' });
  });
  it('a claim exactly the stale-claim time old is still held elsewhere', () => {
    expect(nextStep(facts({ bsky_uri: 'pending', claimed_at: STALE_BEFORE }), NOW, rules)).toEqual({ kind: 'held_elsewhere' });
  });
  it('a stale claim on a listed story is taken over to post, whatever its retry time', () => {
    const meta = facts({ bsky_uri: 'pending', claimed_at: iso(NOW - STALE_CLAIM_MS - 1), attempts: 3, next_attempt_at: iso(NOW + 60_000) });
    expect(nextStep(meta, NOW, rules)).toEqual({ kind: 'post', takeover: true, staleBefore: STALE_BEFORE });
  });
  it('a stale claim on an unlisted story is taken over to delete, from the claim (no recorded post)', () => {
    const meta = facts({
      hidden: true,
      bsky_uri: 'pending',
      claimed_at: iso(NOW - STALE_CLAIM_MS - 1),
      next_attempt_at: iso(NOW + 60_000),
    });
    expect(nextStep(meta, NOW, rules)).toEqual({ kind: 'delete', takeover: true, staleBefore: STALE_BEFORE, posted: undefined });
  });
  it('staleness is judged at the time given, not the wall clock', () => {
    const meta = facts({ bsky_uri: 'pending', claimed_at: iso(NOW - 1_000) });
    expect(nextStep(meta, NOW + STALE_CLAIM_MS, rules)).toEqual({ kind: 'post', takeover: true, staleBefore: iso(NOW) });
  });
});

describe('nextStep: the Bluesky side already matches the story, so it leaves the queue', () => {
  it('listed and posted: leave the queue while that post is still recorded', () => {
    expect(nextStep(facts({ bsky_uri: POST, next_attempt_at: iso(NOW + 60_000) }), NOW, rules)).toEqual({
      kind: 'leave_queue',
      checked: { posted: POST },
    });
  });
  it('hidden and never reached (no marker, no attempt): leave the queue while still so', () => {
    expect(nextStep(facts({ hidden: true }), NOW, rules)).toEqual({ kind: 'leave_queue', checked: { neverReached: true } });
  });
  it('private and never reached, attempts counted as zero: leave the queue while still so', () => {
    expect(nextStep(facts({ visibility: 'private', attempts: 0 }), NOW, rules)).toEqual({
      kind: 'leave_queue',
      checked: { neverReached: true },
    });
  });
});

describe('nextStep: a failed attempt waits for its retry time', () => {
  it('a retry time after now is not due', () => {
    const next = iso(NOW + 1);
    expect(nextStep(facts({ attempts: 1, next_attempt_at: next }), NOW, rules)).toEqual({ kind: 'not_due', nextAttemptAt: next });
  });
  it('a retry time of exactly now is due', () => {
    expect(nextStep(facts({ attempts: 1, next_attempt_at: iso(NOW) }), NOW, rules)).toEqual({
      kind: 'post',
      takeover: false,
      staleBefore: STALE_BEFORE,
    });
  });
  it('an operator’s explicit retry ignores the retry time', () => {
    const meta = facts({ attempts: 1, next_attempt_at: iso(NOW + 60_000) });
    expect(nextStep(meta, NOW, { ...rules, ignoreSchedule: true })).toEqual({ kind: 'post', takeover: false, staleBefore: STALE_BEFORE });
  });
  it('a deletion waits for its retry time too', () => {
    const next = iso(NOW + 1);
    expect(nextStep(facts({ hidden: true, bsky_uri: POST, attempts: 1, next_attempt_at: next }), NOW, rules)).toEqual({
      kind: 'not_due',
      nextAttemptAt: next,
    });
  });
});

describe('nextStep: work owed on Bluesky is claimed from nobody', () => {
  it('listed, never posted: post', () => {
    expect(nextStep(facts(), NOW, rules)).toEqual({ kind: 'post', takeover: false, staleBefore: STALE_BEFORE });
  });
  it('hidden with a recorded post: delete that post', () => {
    expect(nextStep(facts({ hidden: true, bsky_uri: POST }), NOW, rules)).toEqual({
      kind: 'delete',
      takeover: false,
      staleBefore: STALE_BEFORE,
      posted: POST,
    });
  });
  it('private with a recorded post: delete that post', () => {
    expect(nextStep(facts({ visibility: 'private', bsky_uri: POST }), NOW, rules)).toEqual({
      kind: 'delete',
      takeover: false,
      staleBefore: STALE_BEFORE,
      posted: POST,
    });
  });
  it('hidden with no marker after an attempt (it may have posted and lost the answer): delete at the record key', () => {
    expect(nextStep(facts({ hidden: true, attempts: 2 }), NOW, rules)).toEqual({
      kind: 'delete',
      takeover: false,
      staleBefore: STALE_BEFORE,
      posted: undefined,
    });
  });
});

describe('nextStep: with documents on, a listed post is followed by its standard.site document (design.md#standard-site)', () => {
  const withDocuments = { ...rules, documents: true };
  it('posted and never documented: the document step, claimed from the post', () => {
    expect(nextStep(facts({ bsky_uri: POST }), NOW, withDocuments)).toEqual({ kind: 'document', posted: POST, staleBefore: STALE_BEFORE });
  });
  it('posted, its document at an older revision: the document step', () => {
    expect(nextStep(facts({ bsky_uri: POST, revision: 3, doc_revision: 2 }), NOW, withDocuments)).toMatchObject({ kind: 'document' });
  });
  it('posted and documented at the current revision: leave the queue, checking the document too', () => {
    expect(nextStep(facts({ bsky_uri: POST, revision: 3, doc_revision: 3 }), NOW, withDocuments)).toEqual({
      kind: 'leave_queue',
      checked: { posted: POST, documented: true },
    });
  });
  it('a document retry waits for its time like a post retry', () => {
    const meta = facts({ bsky_uri: POST, next_attempt_at: iso(NOW + 1_000) });
    expect(nextStep(meta, NOW, withDocuments)).toEqual({ kind: 'not_due', nextAttemptAt: iso(NOW + 1_000) });
  });
  it('hidden or private: the post and document are deleted, never documented', () => {
    expect(nextStep(facts({ bsky_uri: POST, hidden: true }), NOW, withDocuments)).toMatchObject({ kind: 'delete', posted: POST });
    expect(nextStep(facts({ bsky_uri: POST, visibility: 'private' }), NOW, withDocuments)).toMatchObject({ kind: 'delete' });
  });
  it('a stale claim (a worker died mid-document) is taken over by the post path, which looks the post up first', () => {
    const meta = facts({ bsky_uri: 'pending', claimed_at: iso(NOW - 2 * STALE_CLAIM_MS) });
    expect(nextStep(meta, NOW, withDocuments)).toEqual({ kind: 'post', takeover: true, staleBefore: STALE_BEFORE });
  });
  it('with documents off, a posted story leaves the queue whatever its document', () => {
    expect(nextStep(facts({ bsky_uri: POST, revision: 3 }), NOW, rules)).toEqual({ kind: 'leave_queue', checked: { posted: POST } });
  });
});
