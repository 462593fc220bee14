// The badges on the real server (hono on loopback over DynamoDB Local): a README's image request
// gets valid SVG whatever it asks for, with an ETag that answers 304, and a story or author that
// cannot be shown looks exactly like one that does not exist.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { storyBadgeFacts } from '../../src/app/queries/badge-facts.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { storyPipingToShell } from '../helpers/capability-stories.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';
import { storyTitled } from '../helpers/stories.ts';

const ANONYMOUS_LIMIT = 2;
const server = useLorebookServer('e2e-badges');
const limited = useLorebookServer('e2e-badges-limited', { config: { anonymousRateLimitPerMinute: ANONYMOUS_LIMIT } });
const author = { account: '', handle: 'badge-author' };
const slugs = { plain: '', piped: '', hidden: '', private: '', hostile: '' };

beforeAll(async () => {
  author.account = (await server.token(author.handle)).account;
  const ctx = server.app.ctx();
  const publish = async (markdown: string) => (await publishStory(ctx, author, { markdown })).slug;
  slugs.plain = await publish(storyTitled('A badge for a plain story'));
  slugs.piped = await publish(storyPipingToShell('A badge for a piped install'));
  slugs.hidden = await publish(storyTitled('A badge for a hidden story'));
  slugs.private = await publish(storyTitled('A badge for a private story', { visibility: 'private' }));
  slugs.hostile = await publish(storyTitled('<script>alert(1)</script> in a badge title'));
  await setVisibility(ctx, author, { slug: slugs.hidden, hidden: true });
});

/** badge-maker 6.0.0's "red" and "lightgrey". */
const BADGE_MAKER_RED = '#dd4343';
const BADGE_MAKER_LIGHTGREY = '#939393';

/** The fill of the message half: badge-maker draws the label rect, then the message rect at x > 0. */
const messageFill = (svg: string): string | undefined => /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]{3,6})"/.exec(svg)?.[1];

const get = (path: string, headers: Record<string, string> = {}) => server.fetch(path, { headers });

/** The badge's SVG, checked well-formed, and the words it shows (its <title>, which badge-maker sets to "label: message"). */
async function badgeOf(response: Response): Promise<{ svg: string; title: string }> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml\b/);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
  const svg = await response.text();
  expect(XMLValidator.validate(svg)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg?: { title?: string; '@_xmlns'?: string } };
  expect(parsed.svg?.['@_xmlns']).toBe('http://www.w3.org/2000/svg');
  return { svg, title: String(parsed.svg?.title ?? '') };
}

const reproduce = (handle: string, slug: string) =>
  server.token(handle).then(({ account }) => reportReproduction(server.app.ctx(), { account, handle }, { slug, result: 'worked' }));

describe('a story badge says how often it was reproduced, in its tier colour', () => {
  it('a T4 story is a red "reproduced 0× · T4" badge, parsed as valid SVG', async () => {
    const { svg, title } = await badgeOf(await get(`/v1/badge/s/${slugs.piped}.svg`));
    expect(title).toBe('reproduced: 0× · T4');
    expect(messageFill(svg)).toBe(BADGE_MAKER_RED);
  });

  it("the count rises after a counted worked reproduction; the author's own and a failed one do not count", async () => {
    const before = await badgeOf(await get(`/v1/badge/s/${slugs.plain}.svg`));
    expect(before.title).toMatch(/^reproduced: 0× · T\d$/);
    await reportReproduction(server.app.ctx(), author, { slug: slugs.plain, result: 'worked' }).catch(() => undefined);
    expect((await badgeOf(await get(`/v1/badge/s/${slugs.plain}.svg`))).title).toBe(before.title);
    await reproduce('badge-reader', slugs.plain);
    expect((await badgeOf(await get(`/v1/badge/s/${slugs.plain}.svg`))).title).toBe(before.title.replace('0×', '1×'));
    const { account } = await server.token('badge-failer');
    await reportReproduction(server.app.ctx(), { account, handle: 'badge-failer' }, { slug: slugs.plain, result: 'failed' });
    expect((await badgeOf(await get(`/v1/badge/s/${slugs.plain}.svg`))).title).toBe(before.title.replace('0×', '1×'));
  });

  it('a second request with If-None-Match of its ETag is 304 with no body; a changed badge answers a new ETag', async () => {
    const path = `/v1/badge/s/${slugs.piped}.svg`;
    const first = await get(path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    await badgeOf(first);
    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get(path, { 'If-None-Match': `W/${etag}` })).status).toBe(304);
    expect((await get(path, { 'If-None-Match': '"something-else"' })).status).toBe(200);
    await reproduce('badge-etag-reader', slugs.piped);
    const changed = await get(path, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('a story or author that cannot be shown is the neutral "not found" badge', () => {
  it('hidden, private, unknown and unparsable slugs all answer the same grey SVG bytes and ETag', async () => {
    const answers = await Promise.all(
      [slugs.hidden, slugs.private, '2026-01-01-no-such-story', 'NOT a slug!', 'a'.repeat(2000)].map((slug) =>
        get(`/v1/badge/s/${encodeURIComponent(slug)}.svg`),
      ),
    );
    const etags = new Set(answers.map((answer) => answer.headers.get('etag')));
    const badges = await Promise.all(answers.map(badgeOf));
    expect(new Set(badges.map((badge) => badge.svg)).size).toBe(1);
    expect(etags.size).toBe(1);
    expect(badges[0]?.title).toBe('lorebook: not found');
    expect(messageFill(badges[0]?.svg ?? '')).toBe(BADGE_MAKER_LIGHTGREY);
  });

  it('an author badge of an unknown handle is the same neutral badge', async () => {
    expect((await badgeOf(await get('/v1/badge/a/nobody-here.svg'))).title).toBe('lorebook: not found');
  });

  it('a story titled <script> or a handle of markup shows no caller-controlled text, no raw markup', async () => {
    const titled = await badgeOf(await get(`/v1/badge/s/${slugs.hostile}.svg`));
    expect(titled.title).toMatch(/^reproduced: 0× · T\d$/);
    const markup = await badgeOf(await get(`/v1/badge/a/${encodeURIComponent('<script>alert(1)</script>')}.svg`));
    expect(markup.title).toBe('lorebook: not found');
    for (const { svg } of [titled, markup]) {
      expect(svg).not.toMatch(/<script|alert/i);
    }
  });

  it("the author's own token still gets the not-found badge for a private or hidden story: a badge is cached publicly", async () => {
    const { token } = await server.token(author.handle);
    for (const slug of [slugs.private, slugs.hidden]) {
      const badge = await badgeOf(await get(`/v1/badge/s/${slug}.svg`, { Authorization: `Bearer ${token}` }));
      expect(badge.title).toBe('lorebook: not found');
    }
  });

  it('a request without .svg is not a badge route', async () => {
    expect((await get(`/v1/badge/s/${slugs.plain}`)).status).toBe(404);
  });
});

describe('what a story badge costs and how it is admitted', () => {
  // The anonymous budget is per minute: a run that crossed a minute between two calls started a new one.
  beforeAll(() => limited.app.freeze());
  it('a story badge reads one item (the story META), whatever the story has', async () => {
    const counter = countRoundTrips(server.app.ctx().store.client);
    try {
      expect(await storyBadgeFacts(server.app.ctx(), slugs.plain)).toEqual({
        worked: expect.any(Number),
        tier: expect.stringMatching(/^T[0-4]$/),
        changed: false,
      });
      expect(counter.snapshot()).toEqual({ GetItem: 1 });
    } finally {
      counter.detach();
    }
  });

  it(`anonymous badges count against the anonymous budget per IP: past ${ANONYMOUS_LIMIT} a minute, 429 rate_limited`, async () => {
    const answers = [];
    for (let call = 0; call <= ANONYMOUS_LIMIT; call += 1) answers.push(await limited.fetch('/v1/badge/s/2026-01-01-no-such-story.svg'));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(ANONYMOUS_LIMIT).fill(200), 429]);
    expect(await answers.at(-1)?.json()).toMatchObject({ code: 'rate_limited', retryable: true });
  });

  it('the OpenAPI document lists both badges as anonymous image/svg+xml answers', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as untyped JSON; a missing part throws and fails the test
    const document = (await (await get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, any>> };
    for (const path of ['/v1/badge/s/{slug}.svg', '/v1/badge/a/{handle}.svg']) {
      const operation = document.paths[path]?.get;
      expect(Object.keys(operation.responses['200'].content)).toEqual(['image/svg+xml']);
      expect(operation.security).toEqual([{}, { bearer: [] }]);
    }
  });
});

describe('an author badge says how many people the stories worked for', () => {
  it('counts the worked reproductions of the public stories, as the author page does', async () => {
    const title = (await badgeOf(await get(`/v1/badge/a/${author.handle}.svg`))).title;
    const page = await (await get(`/a/${author.handle}`)).text();
    const worked = Number(/worked for (\d+) (?:person|people)/.exec(page)?.[1]);
    expect(title).toBe(`worked for: ${worked} ${worked === 1 ? 'person' : 'people'}`);
    await reproduce('badge-author-fan', slugs.hostile);
    expect((await badgeOf(await get(`/v1/badge/a/@${author.handle}.svg`))).title).toBe(`worked for: ${worked + 1} people`);
  });

  it('anonymous: no token needed, no 401', async () => {
    const answer = await get(`/v1/badge/a/${author.handle}.svg`);
    expect(answer.status).toBe(200);
  });
});
