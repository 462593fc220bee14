// The pages in a real browser: headless Chromium driven by playwright-core (chromium on PATH, else
// the one inside an npm package, never a download: test/helpers/chromium.ts) loads pages from
// `npm start` — the real server process over this suite's table on DynamoDB Local — reads the title,
// counts and badges as a person sees them, and saves screenshots under test/artifacts/
// (git-ignored) for review. A story whose markdown carries a <script>, an onerror attribute and a
// javascript: link is loaded and clicked: no dialog, no script runs, no navigation — once as served
// (with its CSP) and once with the CSP stripped, so the markup itself is proven inert, not only
// blocked by the policy.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeImage } from '../../src/app/images/upload-image.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { pictureOf } from '../helpers/images.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { CORRECTION_NOTE, storyWithEverything, withdrawnStory } from '../helpers/page-stories.ts';
import { failStory, storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);

const app = useAppFixture('pages-browser');
let server: NpmStart | undefined;
let browser: Browser | undefined;
let full = '';
let hostile = '';
let withdrawn = '';
let aggregated = '';
let question = '';
let answer = '';
let pictured = '';
let ownImagePath = '';

/** Agent and OS names a stranger chose, at the longest a report allows; each would open a dialog if it ran. */
const HOSTILE_AGENT = '<script>alert("x")</script>';
const HOSTILE_OS = '"><img src=x onerror=alert(1)>';

/** Each payload would set window.__pwned (and the title) if it ever ran. */
const PAYLOADS = [
  '<script>window.__pwned = "script"; document.title = "pwned";</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'; alert(\'onerror\')">',
  "[click me](javascript:window.__pwned='link';alert('link'))",
  '[data link](data:text/html,<script>alert(1)</script>)',
  "![pixel](javascript:window.__pwned='image')",
].join('\n\n');

beforeAll(async () => {
  const ctx = app.ctx();
  const made = await createToken(ctx, { handle: 'alice', expiresInSeconds: 3600 });
  const alice = { account: made.account, handle: 'alice' };
  full = await storyWithEverything(ctx, alice, 'Counting once under parallel reports');
  hostile = (
    await publishStory(ctx, alice, {
      markdown: storyTitled('Markdown that tries to run code').replace(
        'I tried a lock item first',
        `${PAYLOADS}\n\nI tried a lock item first`,
      ),
    })
  ).slug;
  withdrawn = await withdrawnStory(ctx, alice, 'Withdrawn by its author');
  aggregated = (await publishStory(ctx, alice, { markdown: storyTitled('Reproduced by three strangers') })).slug;
  for (const [index, minutes] of [4, 9, 30].entries()) {
    await reportReproduction(
      ctx,
      { account: `acct-stranger-${index}`, handle: `stranger-${index}` },
      {
        slug: aggregated,
        result: 'worked',
        agent: { name: HOSTILE_AGENT },
        env: { os: HOSTILE_OS },
        duration_min: minutes,
        tokens: minutes * 1000,
      },
    );
  }
  // A fail story by a stranger, answered by alice's success story naming its page.
  const asker = { account: 'acct-asker', handle: 'asker' };
  const asked = failStory().replaceAll(
    "Agent can't make headless Chromium find its fonts after four attempts",
    'Fonts vanish in headless CI',
  );
  question = (await publishStory(ctx, asker, { markdown: asked })).slug;
  answer = (
    await publishStory(ctx, alice, { markdown: storyTitled('Fonts came back with fontconfig', { extra: `This answers /s/${question}.` }) })
  ).slug;
  // Images on other sites (never reached: the test aborts any request off the server) beside one of lorebook's own.
  ownImagePath = new URL((await storeImage(ctx, alice, { bytes: await pictureOf(1), type: 'image/png', opId: undefined })).url).pathname;
  pictured = (
    await publishStory(ctx, alice, {
      markdown: storyTitled('Pictures from elsewhere')
        .replace('status: n/a\n', 'status: n/a\nimage: https://img.example/hero.png\nimage_alt: The hero\n')
        .replace(
          'I tried a lock item first',
          `![a chart](https://img.example/chart.png) ![](http://plain.example/pixel.gif) ![ours](${ownImagePath})\n\nI tried a lock item first`,
        ),
    })
  ).slug;
  server = await startNpmStart({ endpoint: testEndpoint(), table: ctx.store.tableName, env: { LOREBOOK_IMAGE_DIR: app.imageDir() } });
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

const base = (): string => (server as NpmStart).baseUrl;
/** Requests the page made to any host but the server's, since the last open(). */
const elsewhere: string[] = [];

async function open(
  path: string,
  options: { viewport?: { width: number; height: number }; stripCsp?: boolean } = {},
): Promise<{ page: Page; dialogs: string[]; status: number | undefined }> {
  const context = await (browser as Browser).newContext({ viewport: options.viewport ?? { width: 1100, height: 1400 } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  // Nothing leaves for another host: such a request is recorded and aborted before any network.
  elsewhere.length = 0;
  await page.route(
    (url) => !url.href.startsWith(base()),
    async (route) => {
      elsewhere.push(route.request().url());
      await route.abort();
    },
  );
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  if (options.stripCsp === true) {
    await page.route(`${base()}/s/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-security-policy'];
      await route.fulfill({ response, headers });
    });
  }
  const response = await page.goto(`${base()}${path}`, { waitUntil: 'load' });
  return { page, dialogs, status: response?.status() };
}

describe('a story page from npm start, in Chromium', () => {
  it('shows the title, the counts side by side, the check answers and the revision badges; screenshots saved', async () => {
    const { page, status } = await open(`/s/${full}`);
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Counting once under parallel reports');
    expect(await page.title()).toBe('Counting once under parallel reports — lorebook');
    expect(await page.locator('[data-count="reproduced"]').innerText()).toBe('Reproduced 4×');
    expect(await page.locator('.outcome.worked').innerText()).toMatch(/^2\s*worked$/);
    expect(await page.locator('.outcome.partial').innerText()).toMatch(/^1\s*partial$/);
    expect(await page.locator('.outcome.failed').innerText()).toMatch(/^1\s*failed$/);
    expect(await page.locator('[data-count="checked"]').innerText()).toBe("Checked 3 times: 1 had it, 2 didn't");
    const badges = await page.locator('[data-badge]').allInnerTexts();
    expect(badges.map((badge) => badge.replace(/ .*/, ''))).toEqual(['reworded', 'updated', 'corrected']);
    expect(await page.locator('.notes').innerText()).toContain(CORRECTION_NOTE);
    // The three outcomes sit side by side: one row, left to right.
    const boxes = await Promise.all(['worked', 'partial', 'failed'].map(async (name) => page.locator(`.outcome.${name}`).boundingBox()));
    expect(new Set(boxes.map((box) => box?.y)).size).toBe(1);
    expect((boxes[0]?.x ?? 0) < (boxes[1]?.x ?? 0) && (boxes[1]?.x ?? 0) < (boxes[2]?.x ?? 0)).toBe(true);
    // The stylesheet loaded (same origin, allowed by the CSP): the page is styled, not a bare document.
    expect(await page.evaluate("getComputedStyle(document.querySelector('.card')).borderRadius")).toBe('10px');
    await page.screenshot({ path: new URL('story-page.png', ARTIFACTS).pathname, fullPage: true });
    await page.context().close();

    const phone = await open(`/s/${full}`, { viewport: { width: 390, height: 844 } });
    // Nothing wider than the phone's screen: no sideways scrolling.
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.page.screenshot({ path: new URL('story-page-phone.png', ARTIFACTS).pathname, fullPage: true });
    await phone.page.context().close();
  }, 60_000);

  it('the home page and the tombstone render too (screenshots saved)', async () => {
    const home = await open('/');
    expect(await home.page.locator('h1').innerText()).toBe('Newest stories');
    expect(await home.page.locator('.story-list h2').allInnerTexts()).toContain('Counting once under parallel reports');
    await home.page.screenshot({ path: new URL('home-page.png', ARTIFACTS).pathname, fullPage: true });
    await home.page.context().close();

    const tomb = await open(`/s/${withdrawn}`);
    expect(tomb.status).toBe(410);
    expect(await tomb.page.locator('h1').innerText()).toBe('Withdrawn by its author');
    expect(await tomb.page.locator('main').innerText()).toContain('This story was withdrawn by its author.');
    await tomb.page.screenshot({ path: new URL('tombstone-page.png', ARTIFACTS).pathname });
    await tomb.page.context().close();
  }, 60_000);
});

describe('an answered fail story, in Chromium', () => {
  it('the success page links the fail story it answers, and the fail page links back under "Answered by" (screenshot saved)', async () => {
    const { page } = await open(`/s/${answer}`);
    expect(await page.locator('[data-answer-pairs="answers"]').innerText()).toBe('Answers: Fonts vanish in headless CI');
    await page.locator('[data-answer-pairs="answers"] a').click();
    await page.waitForURL(`${base()}/s/${question}`);
    expect(await page.locator('h1').innerText()).toBe('Fonts vanish in headless CI');
    expect(await page.locator('[data-answer-pairs="answered-by"]').innerText()).toBe('Answered by: Fonts came back with fontconfig');
    await page.screenshot({ path: new URL('answered-fail-story.png', ARTIFACTS).pathname, fullPage: true });
    await page.context().close();
  }, 60_000);
});

describe('the aggregates card, in Chromium', () => {
  it('shows hostile agent and OS names as text a reader sees, with the CSP stripped: nothing runs', async () => {
    const { page, dialogs, status } = await open(`/s/${aggregated}`, { stripCsp: true });
    expect(status).toBe(200);
    const card = page.locator('.aggregates');
    expect(await card.locator('h2').innerText()).toBe('Across reproductions');
    expect(await card.locator('[data-aggregate="agent-family"]').innerText()).toBe(`${HOSTILE_AGENT}: 3 (3 reports)`);
    expect(await card.locator('[data-aggregate="os"]').innerText()).toBe('"><img-src=x-onerror=alert(1)>: 3 (3 reports)');
    expect(await card.locator('[data-aggregate="duration-min"]').innerText()).toBe('9 min (3 reports)');
    expect(await card.locator('[data-aggregate="tokens"]').innerText()).toBe('9,000 (3 reports)');
    expect(await page.locator('script, img').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: new URL('story-aggregates.png', ARTIFACTS).pathname, fullPage: true });
    await page.context().close();
  }, 60_000);
});

describe('markdown that tries to run code runs nothing', () => {
  it.each([
    ['as served, with its CSP', false],
    ['with the CSP stripped: the markup itself is inert', true],
  ])(
    '%s: no dialog, no script ran, no handler attribute, and clicking the javascript: link goes nowhere',
    async (_name, stripCsp) => {
      const { page, dialogs, status } = await open(`/s/${hostile}`, { stripCsp });
      expect(status).toBe(200);
      const pwned = await page.evaluate('window.__pwned');
      expect(pwned).toBeUndefined();
      expect(await page.title()).toBe('Markdown that tries to run code — lorebook');
      const body = page.locator('.story-body');
      expect(await body.locator('script').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('[onerror], [onclick], [onload]').count()).toBe(0);
      expect(await page.locator('a[href^="javascript:" i], a[href^="data:" i], img[src^="javascript:" i]').count()).toBe(0);
      // The payloads are there as text a reader can see, not as elements.
      expect(await body.innerText()).toContain('<script>window.__pwned = "script"; document.title = "pwned";</script>');
      expect(await body.innerText()).toContain('onerror=');

      const link = body.getByText('click me');
      expect(await link.evaluate((element) => element.tagName)).toBe('A');
      expect(await link.getAttribute('href')).toBeNull();
      const before = page.url();
      await link.click();
      await page.waitForTimeout(300);
      expect(page.url()).toBe(before);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(dialogs).toEqual([]);
      if (!stripCsp) await page.screenshot({ path: new URL('hostile-markdown.png', ARTIFACTS).pathname, fullPage: true });
      await page.context().close();
    },
    60_000,
  );

  it.each([
    ['as served', false],
    ['with the CSP stripped', true],
  ])(
    "images on other sites are links the browser never fetches, %s; lorebook's own image loads",
    async (_name, stripCsp) => {
      const { page, status } = await open(`/s/${pictured}`, { stripCsp });
      expect(status).toBe(200);
      await page.waitForLoadState('networkidle');
      expect(elsewhere).toEqual([]);
      const links = page.locator('a.image-link');
      expect(await links.evaluateAll((found) => found.map((a) => [a.getAttribute('href'), a.textContent]))).toEqual([
        ['https://img.example/hero.png', 'Image: The hero (on img.example)'],
        ['https://img.example/chart.png', 'Image: a chart (on img.example)'],
        ['http://plain.example/pixel.gif', 'Image on plain.example'],
      ]);
      const images = await page
        .locator('img')
        .evaluateAll((found) =>
          found.map((img) => [img.getAttribute('src'), (img as unknown as { naturalWidth: number }).naturalWidth > 0]),
        );
      expect(images).toEqual([[ownImagePath, true]]);
      await page.context().close();
    },
    60_000,
  );
});
