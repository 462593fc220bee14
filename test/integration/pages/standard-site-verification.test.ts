// standard.site verification over HTTP (docs/pages.md § standard.site), against a real server on
// 127.0.0.1 and DynamoDB Local: `/.well-known/site.standard.publication` answers the at-uri the
// announcer recorded for this site's URL — never one recorded for another URL — and a story page
// links its document only once the story records one. (The announcer writing both against the
// real PDS: test/integration/bluesky/standard-site-documents.test.ts; in Chromium:
// test/e2e/standard-site-browser.test.ts.)
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { recordPublication } from '../../../src/store/site-publication.ts';
import { updateItem } from '../../../src/store/update-item.ts';
import { caller } from '../../helpers/app-fixture.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('pages-standard-site');
const WELL_KNOWN = '/.well-known/site.standard.publication';
const PUBLICATION = 'at://did:plc:lorebooktest/site.standard.publication/3lzy2ji4nms2z';
const DOCUMENT = 'at://did:plc:lorebooktest/site.standard.document/3lzy2ji4nms2a';

const documentLinks = (html: string): string[] =>
  [...html.matchAll(/<link rel="site\.standard\.document" href="([^"]*)">/g)].map((match) => match[1] as string);

describe('the well-known publication endpoint', () => {
  it('404 until a publication is recorded; one recorded for another site URL is not this site’s; then the at-uri, as text/plain', async () => {
    const before = await server.fetch(WELL_KNOWN);
    expect(before.status).toBe(404);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain/);

    await recordPublication(server.app.ctx().store, { uri: PUBLICATION, cid: 'bafy-other', url: 'https://elsewhere.example' });
    expect((await server.fetch(WELL_KNOWN)).status).toBe(404);

    await recordPublication(server.app.ctx().store, { uri: PUBLICATION, cid: 'bafy-here', url: server.baseUrl() });
    const after = await server.fetch(WELL_KNOWN);
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(after.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await after.text()).toBe(PUBLICATION);
  });
});

describe('the story page’s document link', () => {
  it('no link while the story records no document; the recorded at-uri once it does, exactly once', async () => {
    const { slug } = await publishStory(server.app.ctx(), caller('alice'), { markdown: storyTitled('Linked to its document') });
    expect(documentLinks(await (await server.fetch(`/s/${slug}`)).text())).toEqual([]);
    await writeAtomically(server.app.ctx().store, [updateItem(storyKey(slug), { set: { doc_uri: DOCUMENT } })]);
    expect(documentLinks(await (await server.fetch(`/s/${slug}`)).text())).toEqual([DOCUMENT]);
  });
});
