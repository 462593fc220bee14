// Whatever text a caller sends, or the store already holds, /feed.atom stays well-formed XML for
// every reader: fast-check sends titles and narratives full of control characters, non-characters,
// lone surrogates, markup and `]]>` through POST /v1/stories on the real server (each is refused
// with validation_failed naming the field and nothing written, or published as written), and
// writes such text straight into stored stories, as text stored before the rule would be.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { revealForbiddenChars } from '../../../src/domain/text-controls.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { useOutside } from '../../helpers/outside.ts';
import { storyTitled, successStory } from '../../helpers/stories.ts';

const server = useLorebookServer('pages-atom-feed-text');
/** Each run is a few requests and a table scan: seconds alone, far longer on a loaded machine. */
const FUZZ_TIMEOUT_MS = 300_000;
const outside = useOutside(server.app);
let token = '';
let account = '';

beforeAll(async () => {
  ({ token, account } = await server.token('feeder'));
});

/** Every HTTP call counts against a rate window; everything else must stay as it was on a refusal. */
const withoutRateWindows = (items: Record<string, unknown>[]) => items.filter((item) => !String(item.PK).startsWith('RATE#'));

/** XML 1.0 §2.2 Char: a document holding anything else is not well-formed, whatever a lenient parser says. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Characters no stored text may hold, and fragments that break XML, CDATA or HTML, mixed with ordinary text. */
const forbidden = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0007',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udfff',
  '\ufdd0',
  '\ufffe',
  '\uffff',
  '\u{1fffe}',
  '\u{10ffff}',
  '\u{e0041}',
  '\u202e',
  '\u200b',
);
const markup = fc.constantFrom(']]>', '<![CDATA[', '<b>', '</title>', '&', '&amp;', '&#7;', '"', "'", '\t', '\n');
const ordinary = fc.constantFrom('a', 'Z', '9', ' ', 'é', '😀', 'word', 'Stories');
const hostileText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(fc.oneof({ weight: 6, arbitrary: ordinary }, { weight: 3, arbitrary: markup }, { weight: 1, arbitrary: forbidden }), {
          minLength: 1,
          maxLength,
        })
        .map((parts) => parts.join('')),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength }) },
  );

interface FeedEntry {
  slug: string;
  title: string;
  summary: string;
}

/** The minimal HTML decoding an Atom reader does on a `type="html"` element. */
const decodeHtml = (text: string): string =>
  text.replace(
    /&(lt|gt|quot|#39|#13|amp);/g,
    (_whole, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", '#13': '\r', amp: '&' })[name] as string,
  );

/** Fetches /feed.atom, proves it well-formed, and answers its entries as a reader would read them. */
async function readFeed(): Promise<FeedEntry[]> {
  const response = await server.fetch('/feed.atom');
  expect(response.status).toBe(200);
  const xml = await response.text();
  expect(NOT_XML_CHAR.exec(xml)?.[0], 'a character XML 1.0 cannot hold').toBeUndefined();
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    trimValues: false,
    parseTagValue: false,
    isArray: (name) => name === 'entry',
  }).parse(xml) as {
    feed: { entry?: Array<{ id: string; title: { '#text'?: string }; summary?: { '#text'?: string } }> };
  };
  return (parsed.feed.entry ?? []).map((entry) => ({
    slug: String(entry.id).replace(/^.*\/s\//, ''),
    title: decodeHtml(entry.title['#text'] ?? ''),
    summary: decodeHtml(entry.summary?.['#text'] ?? ''),
  }));
}

/** The fixture's own `## Reproduce this` section, so the parts pass every rule but the text ones. */
const reproduce = (): string => successStory().split('## Reproduce this\n')[1] as string;

const publishParts = (title: string, narrative: string): Promise<Response> =>
  server.fetch('/v1/stories', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      parts: { title, date: '2026-11-02', narrative, tags: ['fuzz'], type: 'success', reproduce: reproduce() },
    }),
  });

describe('the Atom feed under hostile text', () => {
  it(
    'text sent to publish is refused naming the field, with nothing written, or published and read back as written; the feed is always well-formed',
    async () => {
      let published = 0;
      // The state after one run is the state before the next: one table scan per run.
      let before = await server.app.state();
      await fc.assert(
        fc.asyncProperty(hostileText(24), hostileText(60), async (title, narrative) => {
          const response = await publishParts(title, narrative);
          const body = (await response.json()) as { code?: string; slug?: string; details?: { fields?: Record<string, string> } };
          const after = await server.app.state();
          const previous = before;
          before = after;
          const entries = await readFeed();
          if (response.status >= 400) {
            expect(['validation_failed', 'payload_too_large']).toContain(body.code);
            if (body.code === 'validation_failed') expect(Object.keys(body.details?.fields ?? {}).length).toBeGreaterThan(0);
            expect(withoutRateWindows(after)).toEqual(withoutRateWindows(previous));
          } else {
            published += 1;
            const stored = after.find((item) => item.PK === storyKey(String(body.slug)).PK && item.SK === 'META') as {
              title: string;
              summary: string;
            };
            expect(NOT_XML_CHAR.test(stored.title) || NOT_XML_CHAR.test(stored.summary)).toBe(false);
            expect(entries.find((entry) => entry.slug === body.slug)).toEqual({
              slug: body.slug,
              title: stored.title,
              summary: stored.summary,
            });
          }
        }),
        { numRuns: 20 },
      );
      // The property would hold vacuously if nothing were ever published.
      expect(published).toBeGreaterThan(0);
    },
    FUZZ_TIMEOUT_MS,
  );

  it('a control character in the title, a U+FFFE in the narrative: validation_failed naming each field, nothing written', async () => {
    const before = await server.app.state();
    const response = await publishParts('Broken \u0007 feed', 'It holds \ufffe here.');
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; details: { fields: Record<string, string> } };
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.details.fields).sort()).toEqual(['parts.narrative', 'parts.title']);
    expect(body.details.fields['parts.title']).toContain('U+0007');
    expect(body.details.fields['parts.narrative']).toContain('U+FFFE');
    expect(withoutRateWindows(await server.app.state())).toEqual(withoutRateWindows(before));
  });

  it(
    'titles and summaries stored before the rule keep the feed well-formed: the characters XML cannot hold are shown by name (`{U+0007}`) on the way out',
    async () => {
      let index = 0;
      await fc.assert(
        fc.asyncProperty(hostileText(40), hostileText(80), async (title, summary) => {
          index += 1;
          const { slug } = await publishStory(
            server.app.ctx(),
            { account, handle: 'feeder' },
            { markdown: storyTitled(`Stored before the rule ${index}`) },
          );
          await outside().store.client.send(
            new UpdateCommand({
              TableName: server.app.ctx().store.tableName,
              Key: storyKey(slug),
              UpdateExpression: 'SET title = :title, summary = :summary',
              ExpressionAttributeValues: { ':title': title, ':summary': summary },
            }),
          );
          const entry = (await readFeed()).find((candidate) => candidate.slug === slug);
          expect(entry).toEqual({ slug, title: revealForbiddenChars(title), summary: revealForbiddenChars(summary) });
        }),
        // A CR once reached readers as LF (XML end-of-line handling): kept as a case of its own.
        { numRuns: 20, examples: [['\r\u0000', '\u0000']] },
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
