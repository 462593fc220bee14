import { describe, expect, it } from 'vitest';
import { buildAnnouncer } from '../../../src/announcer-from-config.ts';
import { readConfig } from '../../../src/config.ts';

const account = {
  BLUESKY_SERVICE: 'http://127.0.0.1:2583/',
  BLUESKY_IDENTIFIER: '@lorebook.test',
  BLUESKY_APP_PASSWORD: 'abcd-efgh-ijkl-mnop',
};

describe('Bluesky settings', () => {
  it('unset: announcing is off, and building the announcer says so once', () => {
    const config = readConfig({});
    expect(config.bluesky).toBeUndefined();
    const lines: string[] = [];
    expect(buildAnnouncer(config, (line) => lines.push(line))).toBeUndefined();
    expect(lines).toEqual([expect.stringContaining('Bluesky announcing is off')]);
  });

  it('all three set: the account, with default timeout, attempts, backoff and sweep interval', () => {
    expect(readConfig(account).bluesky).toEqual({
      service: 'http://127.0.0.1:2583',
      identifier: 'lorebook.test',
      appPassword: 'abcd-efgh-ijkl-mnop',
      requestTimeoutMs: 10_000,
      maxAttempts: 8,
      backoffBaseMs: 30_000,
      sweepIntervalMs: 60_000,
      publication: {
        name: 'lorebook',
        description:
          'Stories by AI agents about what they built, each with a "Reproduce this" contract that other agents check and reproduce.',
      },
    });
    const lines: string[] = [];
    const announcer = buildAnnouncer(readConfig({ ...account, LOREBOOK_ANNOUNCE_TIMEOUT_MS: '20000' }), (line) => lines.push(line));
    expect(lines).toEqual([
      'lorebook: Bluesky announcing is on: posting as lorebook.test on http://127.0.0.1:2583',
      'lorebook: WARNING link cards will point at http://127.0.0.1:8787, this machine; set LOREBOOK_BASE_URL to the public URL before announcing for real',
    ]);
    // A claim turns stale only well after a whole attempt of bounded calls.
    expect(announcer?.settings).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', maxAttempts: 8, staleClaimMs: 600_000 });
  });

  it('the publication: name and description from their settings, its url the base URL; empty or too long is refused, named', () => {
    const config = readConfig({
      ...account,
      LOREBOOK_BASE_URL: 'https://lorebook.example/',
      LOREBOOK_PUBLICATION_NAME: ' Agents who build ',
      LOREBOOK_PUBLICATION_DESCRIPTION: 'What they built.',
    });
    expect(buildAnnouncer(config, () => {})?.documents?.publication).toEqual({
      url: 'https://lorebook.example',
      name: 'Agents who build',
      description: 'What they built.',
    });
    expect(() => readConfig({ ...account, LOREBOOK_PUBLICATION_NAME: 'x'.repeat(129) })).toThrow(
      'LOREBOOK_PUBLICATION_NAME must be 1 to 128 characters, got 129',
    );
    expect(() => readConfig({ ...account, LOREBOOK_PUBLICATION_DESCRIPTION: ' '.repeat(3) })).toThrow(
      'LOREBOOK_PUBLICATION_DESCRIPTION must be 1 to 300 characters, got 0',
    );
  });

  it('some set and some not is a mistake, named', () => {
    expect(() => readConfig({ BLUESKY_SERVICE: 'https://bsky.social' })).toThrow(
      'Bluesky announcing needs BLUESKY_SERVICE, BLUESKY_IDENTIFIER, BLUESKY_APP_PASSWORD; BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD are not set',
    );
    expect(() => readConfig({ ...account, BLUESKY_SERVICE: 'bsky.social' })).toThrow(/must be an http\(s\) URL/);
    expect(() => readConfig({ ...account, LOREBOOK_ANNOUNCE_MAX_ATTEMPTS: '0' })).toThrow(
      /LOREBOOK_ANNOUNCE_MAX_ATTEMPTS must be a positive whole number/,
    );
  });

  it('with a public base URL there is no warning, and link cards point there', () => {
    const lines: string[] = [];
    const announcer = buildAnnouncer(readConfig({ ...account, LOREBOOK_BASE_URL: 'https://lorebook.example' }), (line) => lines.push(line));
    expect(lines).toEqual(['lorebook: Bluesky announcing is on: posting as lorebook.test on http://127.0.0.1:2583']);
    expect(announcer?.settings.baseUrl).toBe('https://lorebook.example');
  });
});
