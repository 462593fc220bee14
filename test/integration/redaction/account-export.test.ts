// GET /v1/account/export over the real hono app: one JSON document holding everything the account
// owns, streamed page by page. A large account (2,000 notifications, 50 stories with revisions) is
// exported too, and its peak heap growth is compared with a small account's.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { redactStory } from '../../../src/app/redact-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { tokenId } from '../../../src/auth/token-secret.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import { notificationItem } from '../../../src/store/story/notification-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { pictureOf } from '../../helpers/images.ts';
import { inParallel } from '../../helpers/in-parallel.ts';
import { putItems } from '../../helpers/put-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('account-export', { rateLimitPerMinute: 1_000_000, publicBaseUrl: 'http://lorebook.test' });

// A collection on demand, so a sample measures what is held, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const bob = caller('bob');

const http = () =>
  createHttpApp({ ctx: app.ctx(), search: createStorySearch(app.ctx()), baseUrl: 'http://lorebook.test', allowedOrigins: [] });

async function signedUp(handle: string) {
  const created = await createToken(app.ctx(), { handle, expiresInSeconds: 3600 });
  return { token: created.token, who: { account: created.account, handle: created.handle } };
}

/** Reads the streamed answer whole. */
async function download(token: string): Promise<{ text: string; status: number; headers: Headers }> {
  const response = await http().request('http://lorebook.test/v1/account/export', {
    headers: { Authorization: `Bearer ${token}`, host: 'lorebook.test' },
  });
  return { text: await response.text(), status: response.status, headers: response.headers };
}

/**
 * Streams the export and throws each chunk away, collecting and sampling the heap every 20 chunks:
 * the bytes and the peak growth of what the heap holds while it streams (the reader keeps nothing).
 */
async function peakHeapGrowth(token: string): Promise<{ bytes: number; peakGrowth: number }> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const response = await http().request('http://lorebook.test/v1/account/export', {
    headers: { Authorization: `Bearer ${token}`, host: 'lorebook.test' },
  });
  let peak = before;
  let bytes = 0;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let chunk = 0; ; chunk += 1) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (chunk % 20 === 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  return { bytes, peakGrowth: peak - before };
}

async function notify(account: string, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, index) =>
    notificationItem({
      recipient: account,
      kind: 'reproduction',
      story: 'some-story',
      story_title: 'Some story',
      actor: bob.account,
      actor_handle: bob.handle,
      text: `note ${index}`,
      at: new Date(Date.UTC(2026, 10, 1, 0, 0, index)).toISOString(),
      discriminator: String(index),
    }),
  );
  await putItems(app.ctx().store, items);
}

describe('GET /v1/account/export', () => {
  it('holds the account, stories with every revision, reports, notifications, images and no secret', async () => {
    const { token, who } = await signedUp('exporter');
    const { slug } = await publishStory(app.ctx(), who, { markdown: storyTitled('Exported story', { extra: 'First words.' }) });
    await editStory(app.ctx(), who, { slug, markdown: storyTitled('Exported story', { extra: 'Second words.' }), kind: 'rephrase' });
    const bobs = await publishStory(app.ctx(), bob, { markdown: storyTitled('Bob story for the exporter') });
    await reportReproduction(app.ctx(), who, { slug: bobs.slug, result: 'worked', note: 'ran it' });
    await reportCheck(app.ctx(), who, { slug: bobs.slug, result: 'no_problem' });
    const image = await storeImage(app.ctx(), who, { bytes: await pictureOf(7), type: 'image/png', opId: undefined });
    await notify(who.account, 3);

    const { text, status, headers } = await download(token);
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toContain('attachment');
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({ format: 'lorebook.account-export.v1', account: { id: who.account, handle: 'exporter' } });
    expect(doc.stories).toHaveLength(1);
    expect(doc.stories[0]).toMatchObject({ slug, revision: 2, markdown: expect.stringContaining('Second words.') });
    expect(
      doc.stories[0].revisions.map((r: { kind: string; markdown: string }) => [
        r.kind,
        r.markdown.includes('Words') || r.markdown.includes('words'),
      ]),
    ).toEqual([
      ['publish', true],
      ['rephrase', true],
    ]);
    expect(doc.reproductions).toEqual([expect.objectContaining({ slug: bobs.slug, result: 'worked', note: 'ran it' })]);
    expect(doc.checks).toEqual([expect.objectContaining({ slug: bobs.slug, result: 'no_problem' })]);
    expect(doc.notifications).toHaveLength(3);
    expect(doc.images).toEqual([expect.objectContaining({ sha256: image.sha256, url: `http://lorebook.test/i/${image.sha256}.png` })]);
    expect(text).not.toContain(token);
    expect(text).not.toContain(tokenId(token));
    expect(text).not.toContain('"PK"');
    // Bob's story is not the exporter's; his reproducers set never appears.
    expect(doc.stories.map((story: { slug: string }) => story.slug)).not.toContain(bobs.slug);
  });

  it('a redacted story exports its redacted revisions without their markdown', async () => {
    const { token, who } = await signedUp('redacter');
    const { slug } = await publishStory(app.ctx(), who, { markdown: storyTitled('Redacted then exported', { extra: 'token=hunter2xyz' }) });
    await redactStory(app.ctx(), who, { slug, base_revision: 1, markdown: storyTitled('Redacted then exported', { extra: 'token=gone' }) });
    const { text } = await download(token);
    expect(text).not.toContain('hunter2xyz');
    const story = JSON.parse(text).stories[0];
    expect(story.revisions.map((r: Record<string, unknown>) => [r.kind, r.redacted === true, 'markdown' in r])).toEqual([
      ['publish', true, false],
      ['redaction', false, true],
    ]);
  });

  it('without a token it is 401 and with a token it needs no more than lorebook:read', async () => {
    const response = await http().request('http://lorebook.test/v1/account/export', { headers: { host: 'lorebook.test' } });
    expect(response.status).toBe(401);
  });

  it('a large account (2,000 notifications, 50 stories with 3 revisions each) parses whole, and streaming it grows the heap by a small fraction of the document', async () => {
    const small = await signedUp('small-account');
    await publishStory(app.ctx(), small.who, { markdown: storyTitled('Small account story') });
    await notify(small.who.account, 5);

    const large = await signedUp('large-account');
    // Each story's three revisions in order; the 50 stories side by side (they share nothing).
    await inParallel(50, 5, async (index) => {
      const title = `Large account story ${index}`;
      const { slug } = await publishStory(app.ctx(), large.who, { markdown: storyTitled(title, { extra: 'Padding. '.repeat(200) }) });
      await editStory(app.ctx(), large.who, {
        slug,
        markdown: storyTitled(title, { extra: 'More padding. '.repeat(200) }),
        kind: 'addition',
      });
      await editStory(app.ctx(), large.who, {
        slug,
        markdown: storyTitled(title, { extra: 'Other padding. '.repeat(200) }),
        kind: 'rephrase',
      });
    });
    await notify(large.who.account, 2000);

    const smallDoc = JSON.parse((await download(small.token)).text);
    const largeDoc = JSON.parse((await download(large.token)).text);
    expect(smallDoc.stories).toHaveLength(1);
    expect(largeDoc.notifications).toHaveLength(2000);
    expect(largeDoc.stories).toHaveLength(50);
    expect(largeDoc.stories.every((story: { revisions: unknown[] }) => story.revisions.length === 3)).toBe(true);
    const smallRun = await peakHeapGrowth(small.token);
    const largeRun = await peakHeapGrowth(large.token);
    const figures = {
      small_bytes: smallRun.bytes,
      large_bytes: largeRun.bytes,
      size_ratio: largeRun.bytes / smallRun.bytes,
      small_peak_growth: smallRun.peakGrowth,
      large_peak_growth: largeRun.peakGrowth,
      growth_ratio: largeRun.peakGrowth / Math.max(smallRun.peakGrowth, 1),
    };
    console.log('account export memory', JSON.stringify(figures));
    // Bounded memory: what the heap holds while streaming is about one page (200 notifications), not the document.
    expect(figures.size_ratio).toBeGreaterThan(100);
    expect(largeRun.peakGrowth).toBeLessThan(largeRun.bytes / 2);
  }, 240_000);
});
