// standard.site verification as a reader's app sees it (docs/pages.md § standard.site): a real
// `npm start` announcing to the test PDS publishes a story over HTTP; the announcer writes the
// publication and the story's document; then headless Chromium loads
// `/.well-known/site.standard.publication` (the publication's at-uri, as plain text) and the story
// page, whose head names the document with `<link rel="site.standard.document">` — both compared
// with the records on the PDS. Before any document exists, the endpoint is a 404 and the page has
// no such link.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_COLLECTION, PUBLICATION_COLLECTION } from '../../integrations/bluesky/index.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { storyKey } from '../../src/store/keys.ts';
import { writeAtomically } from '../../src/store/run-write.ts';
import { updateItem } from '../../src/store/update-item.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { eventually } from '../helpers/eventually.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { useBluesky } from '../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const app = useAppFixture('standard-site-browser');
const bsky = useBluesky();
let server: NpmStart | undefined;
let browser: Browser | undefined;
let token = '';
/** npm start is a cold Node start importing @atproto/api: slow on a busy machine. */
const TEST_MS = 120_000;

beforeAll(async () => {
  token = (await createToken(app.ctx(), { handle: 'alice', expiresInSeconds: 3600 })).token;
  server = await startNpmStart({
    endpoint: testEndpoint(),
    table: app.ctx().store.tableName,
    env: {
      BLUESKY_SERVICE: bsky.proxy().url,
      BLUESKY_IDENTIFIER: bsky.account().handle,
      BLUESKY_APP_PASSWORD: bsky.account().appPassword,
      LOREBOOK_PUBLICATION_NAME: 'lorebook in Chromium',
      // Stories this test writes into the table directly are announced by npm start's sweep.
      LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS: '1000',
    },
  });
  browser = await launchChromium();
}, TEST_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

const base = (): string => (server as NpmStart).baseUrl;

async function load(path: string) {
  const context = await (browser as Browser).newContext();
  const page = await context.newPage();
  const response = await page.goto(`${base()}${path}`, { waitUntil: 'load' });
  return { page, response, close: () => context.close() };
}

const documentLinks = async (path: string): Promise<(string | null)[]> => {
  const { page, close } = await load(path);
  const hrefs = await page
    .locator('link[rel="site.standard.document"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  await close();
  return hrefs;
};

describe('standard.site verification from npm start, in Chromium', () => {
  it(
    'before any story is announced: the well-known endpoint is a 404 that says why',
    async () => {
      const { page, response, close } = await load('/.well-known/site.standard.publication');
      expect(response?.status()).toBe(404);
      expect(await page.locator('body').innerText()).toMatch(/no standard\.site publication yet/);
      await close();
    },
    TEST_MS,
  );

  it(
    'publish over HTTP → the well-known endpoint answers the publication’s at-uri as text/plain, and the story page’s head links its document',
    async () => {
      const published = await fetch(`${base()}/v1/stories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
        body: storyTitled('Verified on the open web'),
      });
      expect(published.status).toBe(201);
      const { slug } = (await published.json()) as { slug: string };
      const document = await eventually(
        async () => (await bsky.records(DOCUMENT_COLLECTION)).find((record) => (record.value.content as { slug?: string }).slug === slug),
        'the story’s document on the PDS',
        60_000,
        250,
      );
      const [publication, ...others] = await bsky.records(PUBLICATION_COLLECTION);
      expect(others).toHaveLength(0);
      expect(publication?.value).toMatchObject({ url: base(), name: 'lorebook in Chromium' });
      expect(document.value.site).toBe(publication?.uri);

      const { page, response, close } = await load('/.well-known/site.standard.publication');
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-type']).toMatch(/^text\/plain/);
      expect(await page.locator('body').innerText()).toBe(publication?.uri);
      await close();

      // The page shows the document once the announcer has recorded it on the story.
      const hrefs = await eventually(
        async () => {
          const links = await documentLinks(`/s/${slug}`);
          return links.length > 0 ? links : undefined;
        },
        'the document link on the story page',
        30_000,
        250,
      );
      expect(hrefs).toEqual([document.uri]);
    },
    TEST_MS,
  );

  it(
    'a document at-uri with markup in it (no real PDS answers one; written into the story directly) stays an inert attribute value',
    async () => {
      const { slug } = await publishStory(
        app.ctx(),
        { account: 'acct-odd', handle: 'odd' },
        { markdown: storyTitled('Odd document address') },
      );
      // Once npm start's sweep has announced and documented it, nothing writes doc_uri again.
      await eventually(
        async () =>
          (await app.state()).find(
            (item) => item.PK === `STORY#${slug}` && item.SK === 'META' && item.GSI3PK === undefined && item.doc_uri !== undefined,
          )
            ? true
            : undefined,
        'the story settled by npm start’s sweep',
        90_000,
        500,
      );
      const hostile = 'at://did:plc:x/site.standard.document/3k"><script>window.__pwned=1</script><link rel="x" href="';
      await writeAtomically(app.ctx().store, [updateItem(storyKey(slug), { set: { doc_uri: hostile } })]);
      const { page, close } = await load(`/s/${slug}`);
      const hrefs = await page
        .locator('link[rel="site.standard.document"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(hrefs).toEqual([hostile]);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(await page.locator('head script, link[rel="x"]').count()).toBe(0);
      await close();
    },
    TEST_MS,
  );
});
