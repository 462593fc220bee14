// The story page, its raw markdown, the tombstone of a withdrawn story and the 404 of a private
// one, served by the real hono app on 127.0.0.1 over DynamoDB Local, with stories written through
// the real use cases. (The browser checks are in test/e2e/pages-browser.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { PAGE_CSP } from '../../../src/http/pages/mount-pages.ts';
import { displayDate } from '../../../src/http/pages/page-format.ts';
import { pictureOf } from '../../helpers/images.ts';
import { answerOf, useLorebookServer } from '../../helpers/lorebook-server.ts';
import { CORRECTION_NOTE, privateStory, storyWithEverything, withdrawnStory } from '../../helpers/page-stories.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('pages-story');
let alice: Caller;
let full = '';
let withImage = '';
let withOwnImage = '';
let ownImageUrl = '';
let withdrawn = '';
let hidden = '';

beforeAll(async () => {
  const ctx = server.app.ctx();
  // A local account as `npm run token` makes one: the handle item and the account item.
  alice = { account: (await server.token('alice')).account, handle: 'alice' };
  full = await storyWithEverything(ctx, alice, 'Counting once under parallel reports');
  withImage = (
    await publishStory(ctx, alice, {
      markdown: storyTitled('A story with a card image').replace(
        'status: n/a\n',
        'status: n/a\nimage: https://img.example/card.png\nimage_alt: A chart of duplicate counts\n',
      ),
    })
  ).slug;
  ownImageUrl = (await storeImage(ctx, alice, { bytes: await pictureOf(1), type: 'image/png', opId: undefined })).url;
  withOwnImage = (
    await publishStory(ctx, alice, {
      markdown: storyTitled('A story with an uploaded card image').replace(
        'status: n/a\n',
        `status: n/a\nimage: ${new URL(ownImageUrl).pathname}\nimage_alt: A chart of duplicate counts\n`,
      ),
    })
  ).slug;
  withdrawn = await withdrawnStory(ctx, alice, 'Withdrawn after a week');
  hidden = await privateStory(ctx, alice, 'Only for me to read');
});

const text = async (path: string): Promise<{ status: number; body: string; headers: Headers }> => {
  const response = await server.fetch(path);
  return { status: response.status, body: await response.text(), headers: response.headers };
};

describe('a story page', () => {
  it('shows the title, author, date, tags, stack and the story itself, rendered', async () => {
    const page = await text(`/s/${full}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Counting once under parallel reports</h1>');
    expect(page.body).toContain('href="/a/alice">@alice</a>');
    expect(page.body).toContain('<time datetime="2026-10-14">Oct 14, 2026</time>');
    for (const tag of ['#dynamodb', '#idempotency', '#mcp']) expect(page.body).toContain(`<li class="tag">${tag}</li>`);
    expect(page.body).toContain('Stack: <code>typescript</code>, <code>aws-lambda</code>, <code>dynamodb</code>');
    expect(page.body).toContain('<h2>Reproduce this</h2>');
    expect(page.body).toContain('It has held for a month.');
    // The front matter and the title heading are the page's header, not part of the body.
    expect(page.body).not.toContain('reproducible: true');
  });

  it('shows "reproduced 4×" with worked, partial and failed side by side, and the check answers', async () => {
    const page = await text(`/s/${full}`);
    expect(page.body).toContain('<p class="summary-line" data-count="reproduced">Reproduced 4×</p>');
    expect(page.body).toMatch(
      /data-count="worked"><strong>2<\/strong>[\s\S]*data-count="partial"><strong>1<\/strong>[\s\S]*data-count="failed"><strong>1<\/strong>/,
    );
    expect(page.body).toContain('Checked 3 times: 1 had it, 2 didn&#39;t');
  });

  it('shows the revision badges — reworded, updated <date>, corrected <date> — and the correction note', async () => {
    const page = await text(`/s/${full}`);
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.now());
    expect(page.body).toContain('data-badge="reworded">reworded</span>');
    expect(page.body).toContain(`data-badge="updated">updated ${today}</span>`);
    expect(page.body).toContain(`data-badge="corrected">corrected ${today}</span>`);
    expect(page.body).toContain(`<strong>Corrected ${today}:</strong> ${CORRECTION_NOTE}`);
  });

  it("carries Open Graph and Twitter card tags for the link card, with the image when the story has one of lorebook's own", async () => {
    const plain = await text(`/s/${full}`);
    expect(plain.body).toContain('<meta property="og:title" content="Counting once under parallel reports">');
    expect(plain.body).toContain(`<meta property="og:url" content="${server.baseUrl()}/s/${full}">`);
    expect(plain.body).toMatch(/<meta property="og:description" content="[^"]+">/);
    expect(plain.body).toContain('<meta name="twitter:card" content="summary">');
    expect(plain.body).toContain(`<link rel="alternate" type="text/markdown" href="${server.baseUrl()}/s/${full}.md">`);
    expect(plain.body).not.toContain('og:image');

    const carded = await text(`/s/${withOwnImage}`);
    expect(carded.body).toContain(`<meta property="og:image" content="${ownImageUrl}">`);
    expect(carded.body).toContain('<meta property="og:image:alt" content="A chart of duplicate counts">');
    expect(carded.body).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(carded.body).toContain(`<meta name="twitter:image" content="${ownImageUrl}">`);
    // On the page it loads from its path, which the page's img-src 'self' covers.
    expect(carded.body).toContain(`<img class="hero" src="${new URL(ownImageUrl).pathname}"`);
  });

  it("an image on another site is a link on the page, never loaded, and never the card image: the card names only lorebook's own", async () => {
    const page = await text(`/s/${withImage}`);
    expect(page.body).toContain(
      '<p class="hero-link"><a class="image-link" rel="nofollow ugc noopener" href="https://img.example/card.png">Image: A chart of duplicate counts (on img.example)</a></p>',
    );
    expect(page.body).not.toMatch(/<img[^>]*img\.example/);
    expect(page.body).not.toContain('og:image');
    expect(page.body).not.toContain('twitter:image');
    expect(page.body).toContain('<meta name="twitter:card" content="summary">');
  });

  it('is served with a CSP that allows no script at all, and holds no <script>', async () => {
    const page = await text(`/s/${full}`);
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).not.toContain('script-src');
    // Images from this origin only: no http:, no other host (another site's image is a link).
    expect(PAGE_CSP).toContain("img-src 'self';");
    expect(PAGE_CSP).not.toMatch(/https?:/);
    expect(page.body).not.toMatch(/<script/i);
    const css = await server.fetch('/assets/lorebook.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('.outcomes');
  });

  it('/s/{slug}.md answers the stored markdown as text/markdown', async () => {
    const response = await server.fetch(`/s/${full}.md`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const markdown = await response.text();
    expect(markdown).toMatch(/^---\ntitle: Counting once under parallel reports\n/);
    expect(markdown).toContain('1. Replace the read-then-write in the same UpdateItem');
  });
});

describe('a story page shows the reproductions in aggregate', () => {
  // Names a stranger chose, each at the longest the report allows: they must reach the page as text.
  const HOSTILE_AGENT = '<script>alert("x")</script>';
  const HOSTILE_OS = `"'><img src=x onerror=alert(1)>`;
  const report = (slug: string, minutes: number) => ({
    slug,
    result: 'worked' as const,
    agent: { name: HOSTILE_AGENT },
    env: { os: HOSTILE_OS },
    duration_min: minutes,
    tokens: 12_000 + minutes,
  });
  const reportedBy = async (slug: string, count: number) => {
    for (let index = 0; index < count; index += 1) {
      await reportReproduction(server.app.ctx(), { account: `acct-agg-${index}`, handle: `agg-${index}` }, report(slug, index * 10));
    }
  };

  it('at 2 reports the page has no aggregates card', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Two reports only') })).slug;
    await reportedBy(slug, 2);
    const page = await text(`/s/${slug}`);
    expect(page.body).toContain('Reproduced 2×');
    expect(page.body).not.toContain('data-aggregate');
    expect(page.body).not.toContain('Across reproductions');
  });

  it('at 3 reports it shows family, OS and both medians, every name escaped', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Three reports in aggregate') })).slug;
    await reportedBy(slug, 3);
    const page = await text(`/s/${slug}`);
    expect(page.body).toContain('<h2>Across reproductions</h2>');
    expect(page.body).toContain(
      '<dd data-aggregate="agent-family">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: 3 <span class="of">(3 reports)</span></dd>',
    );
    expect(page.body).toContain(
      '<dd data-aggregate="os">&quot;&#39;&gt;&lt;img-src=x-onerror=alert(1)&gt;: 3 <span class="of">(3 reports)</span></dd>',
    );
    expect(page.body).toContain('<dd data-aggregate="duration-min">10 min <span class="of">(3 reports)</span></dd>');
    expect(page.body).toContain('<dd data-aggregate="tokens">12,010 <span class="of">(3 reports)</span></dd>');
    expect(page.body).not.toContain(HOSTILE_AGENT);
    expect(page.body).not.toMatch(/<script|<img/i);
  });

  it('GET /v1/stories/{slug} and the MCP tool get_story (its output schema checked by the SDK client) carry the same aggregates', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Aggregates over HTTP') })).slug;
    await reportedBy(slug, 3);
    const expected = {
      by_agent_family: { reports: 3, buckets: [{ name: HOSTILE_AGENT, reports: 3 }], other: 0 },
      by_os: { reports: 3, buckets: [{ name: `"'><img-src=x-onerror=alert(1)>`, reports: 3 }], other: 0 },
      duration_min: { reports: 3, median: 10 },
      tokens: { reports: 3, median: 12_010 },
    };
    const response = await server.fetch(`/v1/stories/${slug}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { aggregates: unknown }).aggregates).toEqual(expected);
    const client = await server.mcp();
    // The SDK checks an answer against the output schema tools/list gave it.
    await client.listTools();
    const story = answerOf<{ aggregates: unknown }>(await client.callTool({ name: 'get_story', arguments: { slug } }));
    expect(story.aggregates).toEqual(expected);
  });
});

describe("the author's own re-run", () => {
  it('shows "author re-checked <date> — still works", then "not re-checked by the author since" after a correction', async () => {
    const ctx = server.app.ctx();
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Re-run by its author') });
    expect((await text(`/s/${slug}`)).body).not.toContain('data-author-recheck');
    await reportReproduction(ctx, alice, { slug, result: 'worked' });
    const today = displayDate(new Date().toISOString());
    const current = (await text(`/s/${slug}`)).body;
    expect(current).toContain(`<p class="author-recheck" data-author-recheck="current">Author re-checked ${today} — still works</p>`);
    // Never counted: the outcome line still invites the first reproduction.
    expect(current).toContain('Not reproduced yet — be the first.');
    const markdown = storyTitled('Re-run by its author', { extra: 'Pin the SDK version.' });
    await editStory(ctx, alice, { slug, markdown, kind: 'correction', note: 'Pin the SDK version.' });
    expect((await text(`/s/${slug}`)).body).toContain(
      `<p class="author-recheck" data-author-recheck="outdated">Not re-checked by the author since the correction of ${today}</p>`,
    );
  });
});

describe('an answered fail story', () => {
  it('links both pages: "Answers" on the success, "Answered by" on the fail, and "closed" once its author set status: n/a', async () => {
    const ctx = server.app.ctx();
    const question = failStory().replaceAll("Agent can't make headless Chromium find its fonts after four attempts", 'Fonts vanish in CI');
    const fail = (await publishStory(ctx, alice, { markdown: question })).slug;
    const answer = storyTitled('Fonts came back with fontconfig', { extra: `This answers /s/${fail}.` });
    const success = (await publishStory(ctx, alice, { markdown: answer })).slug;
    expect((await text(`/s/${success}`)).body).toContain(
      `<p class="answer-pairs" data-answer-pairs="answers">Answers: <a href="/s/${fail}">Fonts vanish in CI</a></p>`,
    );
    expect((await text(`/s/${fail}`)).body).toContain(
      `<p class="answer-pairs" data-answer-pairs="answered-by">Answered by: <a href="/s/${success}">Fonts came back with fontconfig</a></p>`,
    );
    await editStory(ctx, alice, { slug: fail, markdown: question.replace('status: open', 'status: n/a'), kind: 'rephrase' });
    expect((await text(`/s/${fail}`)).body).toContain('Fonts came back with fontconfig</a> — closed by its author</p>');
  });

  it('get_story over MCP (checked by the SDK client against the listed output schema) and GET /v1/stories/{slug} carry the pair', async () => {
    const ctx = server.app.ctx();
    const question = failStory().replaceAll(
      "Agent can't make headless Chromium find its fonts after four attempts",
      'Fonts vanish over MCP',
    );
    const fail = (await publishStory(ctx, alice, { markdown: question })).slug;
    const answer = storyTitled('Fonts back over MCP', { extra: `This answers /s/${fail}.` });
    const success = (await publishStory(ctx, alice, { markdown: answer })).slug;
    await reportReproduction(ctx, alice, { slug: success, result: 'partial' });
    const client = await server.mcp();
    await client.listTools();
    const asked = answerOf<{ answered_by: unknown }>(await client.callTool({ name: 'get_story', arguments: { slug: fail } }));
    expect(asked.answered_by).toEqual([
      {
        slug: success,
        title: 'Fonts back over MCP',
        status: 'n/a',
        url: `${server.baseUrl()}/s/${success}`,
        story_url: `${server.baseUrl()}/s/${success}`,
      },
    ]);
    const response = await server.fetch(`/v1/stories/${success}`);
    const answered = (await response.json()) as { answers: unknown; author_recheck: unknown };
    expect(answered.answers).toEqual([
      {
        slug: fail,
        title: 'Fonts vanish over MCP',
        status: 'open',
        url: `${server.baseUrl()}/s/${fail}`,
        story_url: `${server.baseUrl()}/s/${fail}`,
      },
    ]);
    expect(answered.author_recheck).toMatchObject({ result: 'partial', state: 'current', text: expect.stringMatching(/— partly works$/) });
  });
});

describe('a withdrawn (hidden) story', () => {
  it('its page is a tombstone: 410, the title and "withdrawn by its author", nothing of the story', async () => {
    const page = await text(`/s/${withdrawn}`);
    expect(page.status).toBe(410);
    expect(page.body).toContain('<h1>Withdrawn after a week</h1>');
    expect(page.body).toContain('This story was withdrawn by its author.');
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    expect(page.body).not.toContain('Reproduce this');
    expect(page.body).not.toContain('og:title');
  });

  it('its markdown answers 410 Gone', async () => {
    const response = await server.fetch(`/s/${withdrawn}.md`);
    expect(response.status).toBe(410);
    expect(await response.text()).not.toContain('title:');
  });
});

describe('a private story is nowhere public', () => {
  it('its page and its markdown are 404, exactly like a story that never existed', async () => {
    const page = await text(`/s/${hidden}`);
    const never = await text('/s/2026-10-14-never-written');
    expect(page.status).toBe(404);
    expect(never.status).toBe(404);
    expect(page.body.replaceAll(hidden, 'SLUG')).toBe(never.body.replaceAll('2026-10-14-never-written', 'SLUG'));
    expect(page.body).not.toContain('Only for me to read');
    const md = await server.fetch(`/s/${hidden}.md`);
    expect(md.status).toBe(404);
    expect(await md.text()).not.toContain('Only for me to read');
  });

  it('even its author, sending a token, gets the 404: pages never read one', async () => {
    const { token } = await server.token('alice');
    const response = await server.fetch(`/s/${hidden}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(404);
  });
});

describe('addresses that name nothing', () => {
  it.each(['/s/not-a-slug', '/s/..%2F..%2Fetc', '/a/nobody.test', '/s/2026-13-45-x.md'])('%s is a 404 page', async (path) => {
    const response = await server.fetch(path);
    expect(response.status).toBe(404);
    await response.text();
  });
});
