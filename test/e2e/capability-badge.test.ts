// The capability badge by hash on the real server (hono on loopback over DynamoDB Local): a
// README's image request for the first 12 hex digits of a text's sha256 gets valid SVG with the
// text's tier, an ETag that answers 304, and anything that does not name exactly one listed
// text — unknown, malformed, a private story's, two texts sharing the 12 digits — is the
// neutral badge, byte for byte the one every other badge shows.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { scanStory } from '../../src/domain/capability/scan.ts';
import { SCANNER_VERSION } from '../../src/domain/capability/scanner-version.ts';
import { storyPipingToShell } from '../helpers/capability-stories.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';

const ANONYMOUS_LIMIT = 2;
const server = useLorebookServer('e2e-capability-badge');
const limited = useLorebookServer('e2e-capability-badge-limited', { config: { anonymousRateLimitPerMinute: ANONYMOUS_LIMIT } });
const author = { account: '', handle: 'capability-badge-author' };
const sha = { piped: '', downloaded: '', private: '', hidden: '' };

/** badge-maker 6.0.0's "red", "yellow" and "lightgrey". */
const COLORS = { red: '#dd4343', yellow: '#dfb317', lightgrey: '#939393' };
const messageFill = (svg: string): string | undefined => /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]{3,6})"/.exec(svg)?.[1];

const steps = (name: string, command = `curl -fsSL https://example.com/${name}.sh | sh`) =>
  storyPipingToShell(`Capability badge ${name}`, command);

beforeAll(async () => {
  author.account = (await server.token(author.handle)).account;
  const ctx = server.app.ctx();
  const publish = async (markdown: string) => {
    await publishStory(ctx, author, { markdown });
    return scanStory(markdown).sha256;
  };
  sha.piped = await publish(steps('piped'));
  sha.downloaded = await publish(steps('downloaded', 'curl -fsSL -o fix.sh https://example.com/fix.sh'));
  sha.private = await publish(steps('private').replace('status: n/a\n', 'status: n/a\nvisibility: private\n'));
  const hidden = steps('hidden');
  sha.hidden = scanStory(hidden).sha256;
  const { slug } = await publishStory(ctx, author, { markdown: hidden });
  await setVisibility(ctx, author, { slug, hidden: true });
});

const get = (path: string, headers: Record<string, string> = {}) => server.fetch(path, { headers });
const badgePath = (digits: string) => `/v1/badge/capability/${digits}.svg`;

async function badgeOf(response: Response): Promise<{ svg: string; title: string; etag: string }> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml\b/);
  expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const svg = await response.text();
  expect(XMLValidator.validate(svg)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg?: { title?: string; '@_xmlns'?: string } };
  expect(parsed.svg?.['@_xmlns']).toBe('http://www.w3.org/2000/svg');
  return { svg, title: String(parsed.svg?.title ?? ''), etag: response.headers.get('etag') ?? '' };
}

/** A record as the store holds them, written straight into the table: what no real text can be made to produce on demand. */
async function putRecord(sha256: string, version: string, tier: string): Promise<void> {
  const { client, tableName } = server.app.ctx().store;
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        PK: `CAP#${sha256.slice(0, 12)}`,
        SK: `${sha256}#V#${version}`,
        sha256,
        tier,
        categories: [],
        scanner_version: version,
        scanned_at: '2026-12-01T00:00:00.000Z',
      },
    }),
  );
}

describe('the capability badge by hash shows the tier of the text', () => {
  it('a listed story’s steps by their first 12 hex digits: a red "capability · T4", parsed as valid SVG', async () => {
    const { svg, title } = await badgeOf(await get(badgePath(sha.piped.slice(0, 12))));
    expect(title).toBe('capability: T4');
    expect(messageFill(svg)).toBe(COLORS.red);
    expect((await badgeOf(await get(badgePath(sha.downloaded.slice(0, 12))))).title).toBe('capability: T2');
  });

  it('more of the hash (up to all 64 digits) and upper-case digits name the same text', async () => {
    const expected = await badgeOf(await get(badgePath(sha.piped.slice(0, 12))));
    for (const digits of [sha.piped, sha.piped.slice(0, 20), sha.piped.slice(0, 12).toUpperCase()]) {
      expect((await badgeOf(await get(badgePath(digits)))).svg).toBe(expected.svg);
    }
  });

  it('a second request with If-None-Match of its ETag is 304 with no body', async () => {
    const first = await badgeOf(await get(badgePath(sha.piped.slice(0, 12))));
    expect(first.etag).toMatch(/^"[\w-]{43}"$/);
    const again = await get(badgePath(sha.piped.slice(0, 12)), { 'If-None-Match': first.etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(first.etag);
  });

  it('the newest scanner version that scanned the text decides, in version order (1.10.0 after 1.9.0)', async () => {
    const text = 'f'.repeat(12) + '0'.repeat(52);
    await putRecord(text, '1.9.0', 'T3');
    await putRecord(text, '1.10.0', 'T1');
    await putRecord(text, '1.2.0', 'T4');
    expect((await badgeOf(await get(badgePath(text.slice(0, 12))))).title).toBe('capability: T1');
  });
});

describe('anything that does not name exactly one listed text is the neutral badge', () => {
  it('unknown, malformed and private-only texts all answer the not-found badge’s bytes and ETag', async () => {
    const notFound = await badgeOf(await get('/v1/badge/s/2026-01-01-no-such-story.svg'));
    expect(notFound.title).toBe('lorebook: not found');
    expect(messageFill(notFound.svg)).toBe(COLORS.lightgrey);
    const neutral = [
      '0123456789ab',
      sha.private.slice(0, 12),
      'zzzzzzzzzzzz',
      sha.piped.slice(0, 11),
      `${sha.piped}0`,
      `${sha.piped.slice(0, 12)}-`,
      'CAP#abc',
      '<script>',
      'a'.repeat(2000),
    ];
    for (const digits of neutral) {
      const badge = await badgeOf(await get(badgePath(encodeURIComponent(digits))));
      expect([digits, badge.svg]).toEqual([digits, notFound.svg]);
      expect(badge.etag).toBe(notFound.etag);
    }
  });

  it('a hidden story’s text keeps the record it got while listed: it was public then, and says only a tier', async () => {
    expect((await badgeOf(await get(badgePath(sha.hidden.slice(0, 12))))).title).toBe('capability: T4');
  });

  it('12 digits two different texts share are neutral; digits enough to tell them apart show each one’s tier', async () => {
    const twin = sha.downloaded.slice(0, 12) + 'e'.repeat(52);
    expect(twin).not.toBe(sha.downloaded);
    await putRecord(twin, SCANNER_VERSION, 'T0');
    expect((await badgeOf(await get(badgePath(sha.downloaded.slice(0, 12))))).title).toBe('lorebook: not found');
    expect((await badgeOf(await get(badgePath(sha.downloaded)))).title).toBe('capability: T2');
    expect((await badgeOf(await get(badgePath(twin.slice(0, 13))))).title).toBe(
      twin[12] === sha.downloaded[12] ? 'lorebook: not found' : 'capability: T0',
    );
  });
});

describe('how the badge by hash is admitted', () => {
  // The anonymous budget is per minute: a run that crossed a minute between two calls started a new one.
  beforeAll(() => limited.app.freeze());
  it('anonymous, no token: counted against the anonymous budget per IP, 429 past it', async () => {
    const answers = [];
    for (let call = 0; call <= ANONYMOUS_LIMIT; call += 1) answers.push(await limited.fetch(badgePath('0123456789ab')));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(ANONYMOUS_LIMIT).fill(200), 429]);
    expect(await answers.at(-1)?.json()).toMatchObject({ code: 'rate_limited', retryable: true });
  });

  it('the OpenAPI document lists it as an anonymous image/svg+xml answer', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as untyped JSON; a missing part throws and fails the test
    const document = (await (await get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, any>> };
    const operation = document.paths['/v1/badge/capability/{sha12}.svg']?.get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['image/svg+xml']);
    expect(operation.security).toEqual([{}, { bearer: [] }]);
  });
});
