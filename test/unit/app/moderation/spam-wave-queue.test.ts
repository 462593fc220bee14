import { describe, expect, it } from 'vitest';
import { spamWaveEntries } from '../../../../src/app/moderation/spam-wave-queue.ts';
import type { DuplicateRefusal } from '../../../../src/store/near-duplicate/duplicate-refusal-items.ts';

const refused = (original: string, account: string, refused_at: string, content_hash = `h-${account}`): DuplicateRefusal => ({
  original,
  account,
  slug: `${account}-copy`,
  title: `Copy by ${account}`,
  content_hash,
  refused_at,
});

describe('spam waves on the operator queue', () => {
  it('one entry per original with every refused copy, newest copy first, and no body or hash', () => {
    const [wave] = spamWaveEntries([
      refused('money-tips', 'spammer-1', '2026-12-02T10:00:01.000Z'),
      refused('money-tips', 'spammer-2', '2026-12-02T10:00:03.000Z'),
      refused('money-tips', 'spammer-1', '2026-12-02T10:00:02.000Z', 'another-text'),
    ]);
    expect(wave).toEqual({
      kind: 'spam_wave',
      slug: 'money-tips',
      at: '2026-12-02T10:00:03.000Z',
      first_at: '2026-12-02T10:00:01.000Z',
      copies: 3,
      accounts: ['spammer-1', 'spammer-2'],
      refused: [
        { account: 'spammer-2', slug: 'spammer-2-copy', title: 'Copy by spammer-2', refused_at: '2026-12-02T10:00:03.000Z' },
        { account: 'spammer-1', slug: 'spammer-1-copy', title: 'Copy by spammer-1', refused_at: '2026-12-02T10:00:02.000Z' },
        { account: 'spammer-1', slug: 'spammer-1-copy', title: 'Copy by spammer-1', refused_at: '2026-12-02T10:00:01.000Z' },
      ],
    });
  });

  it('waves are ordered by their latest refusal, newest first, whatever order the days were read in', () => {
    const waves = spamWaveEntries([
      refused('old-wave', 'a', '2026-11-20T09:00:00.000Z'),
      refused('new-wave', 'b', '2026-12-01T08:00:00.000Z'),
      refused('old-wave', 'c', '2026-12-02T07:00:00.000Z'),
    ]);
    expect(waves.map((wave) => [wave.slug, wave.at])).toEqual([
      ['old-wave', '2026-12-02T07:00:00.000Z'],
      ['new-wave', '2026-12-01T08:00:00.000Z'],
    ]);
  });

  it('no refusals: no waves', () => {
    expect(spamWaveEntries([])).toEqual([]);
  });
});
