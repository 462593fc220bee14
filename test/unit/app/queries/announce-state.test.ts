import { describe, expect, it } from 'vitest';
import { announceState, authorAnnounceState } from '../../../../src/app/queries/announce-state.ts';
import { toAnnounceProgress } from '../../../../src/store/story/announce/progress.ts';

const uri = 'at://did:plc:lorebook/app.bsky.feed.post/3l2abc';

describe('the announce state is derived from the announcer fields, never stored', () => {
  it.each([
    ['a post uri is posted', { bsky_uri: uri, queued: false }, { state: 'posted', uri }],
    [
      'a post uri wins over a stale queue entry and an old error',
      { bsky_uri: uri, queued: true, last_error: 'x' },
      { state: 'posted', uri },
    ],
    ['on the queue, never tried, is pending', { queued: true }, { state: 'pending' }],
    ['a claim in flight is pending', { bsky_uri: 'pending', queued: true }, { state: 'pending' }],
    ['a claim in flight off the queue is still pending', { bsky_uri: 'pending', queued: false }, { state: 'pending' }],
    ['a retry still owed shows the last error', { queued: true, last_error: 'PDS 502' }, { state: 'pending', last_error: 'PDS 502' }],
    ['an error with nothing owed any more is failed', { queued: false, last_error: 'PDS 502' }, { state: 'failed', last_error: 'PDS 502' }],
    [
      'a claim in flight after an earlier failure is pending',
      { bsky_uri: 'pending', queued: false, last_error: 'PDS 502' },
      { state: 'pending', last_error: 'PDS 502' },
    ],
    [
      'the document step holding the claim is still posted, with the post it was claimed from',
      { bsky_uri: 'pending', claim_post: uri, queued: true },
      { state: 'posted', uri },
    ],
    ['nothing owed and never tried is off (private, hidden)', { queued: false }, { state: 'off' }],
    ['a marker that is not an at:// uri is not a post', { bsky_uri: 'https://bsky.app/x', queued: false }, { state: 'off' }],
  ] as const)('%s', (_name, fields, expected) => {
    expect(announceState(fields)).toStrictEqual(expected);
  });
});

describe('an announcement set aside as too old (design.md#announcing-resumes)', () => {
  const item = { PK: 'STORY#s', SK: 'META', GSI3PK: 'ANNOUNCE#SKIPPED', GSI3SK: '2026-11-28T09:00:00.000Z#2026-11-28-old' };

  it('reads as not queued, skipped since its sort key time', () => {
    expect(toAnnounceProgress(item)).toEqual({ queued: false, skipped_since: '2026-11-28T09:00:00.000Z' });
  });

  it('is skipped, too_old, owed_since to its author, and off to everyone else', () => {
    const progress = toAnnounceProgress(item);
    expect(authorAnnounceState(progress, Date.parse('2026-12-03T00:00:00Z'))).toEqual({
      state: 'skipped',
      reason: 'too_old',
      owed_since: '2026-11-28T09:00:00.000Z',
    });
    expect(announceState(progress)).toEqual({ state: 'off' });
  });

  it('once back on the queue it is pending again for its author', () => {
    const progress = toAnnounceProgress({ ...item, GSI3PK: 'ANNOUNCE' });
    expect(authorAnnounceState(progress, Date.parse('2026-12-03T00:00:00Z'))).toEqual({ state: 'pending' });
  });
});
