// The secret scan has one door: parseWriteInput. Every use case in src/app that parses its input
// either goes through it or is on the list of use cases that store nothing, so a new write that
// calls parseInput alone fails here until someone decides which it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textFields } from '../../../../../src/app/secrets/refuse-secrets.ts';

const APP = new URL('../../../../../src/app/', import.meta.url).pathname;

/**
 * Use cases that parse input and store nothing a caller wrote (reads; check_capability answers and
 * forgets; operator CLI token commands).
 */
const STORES_NOTHING = new Set([
  'check-capability.ts',
  'drafts/list-drafts.ts',
  'feeds/feed-skeleton.ts',
  'oauth-server/tokens.ts',
  'queries/get-story.ts',
  'queries/list-notifications.ts',
  'queries/list-stories.ts',
  'search/story-search.ts',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the door of every write', () => {
  const files = sources(APP).map((path) => ({ name: relative(APP, path), text: readFileSync(path, 'utf8') }));

  it('every use case that parses input with parseInput alone is one that stores nothing', () => {
    const parseOnly = files
      .filter(({ name, text }) => name !== 'input/parse-write-input.ts' && /\bparseInput\(/.test(text))
      .map(({ name }) => name);
    expect(parseOnly.sort()).toEqual([...STORES_NOTHING].sort());
  });

  it('the write use cases all go through parseWriteInput', () => {
    const writes = files.filter(({ text }) => /\bawait parseWriteInput\(/.test(text)).map(({ name }) => name);
    expect(writes.length).toBeGreaterThanOrEqual(15);
    expect(writes).toEqual(
      expect.arrayContaining([
        'publish-story.ts',
        'edit-story.ts',
        'report-reproduction.ts',
        'drafts/draft-story-for.ts',
        'drafts/publish-draft.ts',
      ]),
    );
  });
});

describe('the strings a write scans', () => {
  it('are every string of the parsed arguments, nested ones by path', () => {
    expect(textFields({ markdown: 'a', note: 'b', agent: { name: 'c' }, tags: ['d', 'e'], tokens: 3, reproducible: true })).toEqual([
      ['agent.name', 'c'],
      ['markdown', 'a'],
      ['note', 'b'],
      ['tags.0', 'd'],
      ['tags.1', 'e'],
    ]);
  });

  it("leave out upload_image's image bytes (re-encoded without metadata, so none of their text is kept)", () => {
    expect(textFields({ data: 'iVBORw0KGgo=', type: 'image/png', op_id: 'k' })).toEqual([
      ['op_id', 'k'],
      ['type', 'image/png'],
    ]);
  });
});
