// A store worth backing up, and what it answers: stories with reproduction reports, images in
// their narratives, drafts waiting to be claimed, each author with a live token; then, for a
// sample of those stories, every answer the surfaces give (the /v1 story and the author's
// drafts, the story page, the claim page, the image bytes, MCP get_story through the real SDK
// client), read over one fixed base URL and a fixed clock so two stores can be compared byte
// for byte. Used by the backup test (50 stories) and `npm run bench:backup` (5,000).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { draftStoryFor } from '../../src/app/drafts/draft-story-for.ts';
import { storeImage } from '../../src/app/images/upload-image.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { pictureOf } from './images.ts';
import { storyTitled } from './stories.ts';

/** The base URL both stores answer under, so links in the answers are the same. */
const BASE_URL = 'http://lorebook.test';
const STORIES_PER_AUTHOR = 10;
/**
 * The untrusted-text marker is random in every answer by design (docs/design.md#untrusted-text): masked, it is the only
 * difference allowed.
 */
const UNTRUSTED_MARKER = /(marker |end of story text )[0-9a-f]{16}/g;

/**
 * The settings the world is seeded under: a few authors publish it all, past the per-minute and
 * per-day limits, and its stories share a template, so the near-duplicate guard is off (design.md#spam-waves).
 */
export const BACKUP_WORLD_CONFIG = {
  rateLimitPerMinute: 1_000_000,
  anonymousRateLimitPerMinute: 1_000_000,
  storiesPerDay: 1_000_000,
  newAccountStoriesPerDay: 1_000_000,
  duplicateWindowHours: 0,
} as const;

export interface BackupWorld {
  slugs: string[];
  /** Per story: the author's token (drafts list), the claim token of its draft, its image file. */
  extras: Map<string, { token: string; claim?: string; image?: string }>;
}

/**
 * `count` stories by count/10 authors: every story has a reproduction report by another
 * account, every 5th an image in its narrative, every 10th a draft by its author beside it.
 */
export async function seedBackupWorld(
  ctx: AppContext,
  count: number,
  { parallel = 8, progress = () => {} }: { parallel?: number; progress?: (stories: number) => void } = {},
): Promise<BackupWorld> {
  const authors: { caller: Caller; token: string }[] = [];
  for (let a = 0; a < Math.ceil(count / STORIES_PER_AUTHOR); a += 1) {
    const handle = `author-${a}.test`;
    const created = await createToken(ctx, { handle, expiresInSeconds: 30 * 24 * 3600 });
    authors.push({ caller: { account: created.account, handle }, token: created.token });
  }
  const authorOf = (i: number) => authors[Math.floor(i / STORIES_PER_AUTHOR)] as { caller: Caller; token: string };
  // Uploads one at a time: each re-encodes in the caller's share of the CPU workers (design.md#fair-cpu).
  const images = new Map<number, { file: string; url: string }>();
  for (let i = 0; i < count; i += 5) {
    const uploaded = await storeImage(ctx, authorOf(i).caller, { bytes: await pictureOf(i), type: 'image/png', opId: undefined });
    images.set(i, { file: uploaded.url.split('/i/')[1] as string, url: uploaded.url });
  }
  const world: BackupWorld = { slugs: new Array<string>(count), extras: new Map() };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const author = authorOf(i);
      const image = images.get(i);
      const extra = `Story number ${i} of the backup world.${image === undefined ? '' : ` ![what it looked like](${image.url})`}`;
      const { slug } = await publishStory(ctx, author.caller, { markdown: storyTitled(`Backup world story ${i}`, { extra }) });
      await reportReproduction(ctx, { account: `acct-reporter-${i % 7}`, handle: `reporter-${i % 7}.test` }, { slug, result: 'worked' });
      let claim: string | undefined;
      if (i % 10 === 0) {
        const draft = await draftStoryFor(ctx, author.caller, {
          markdown: storyTitled(`Backup world draft ${i}`),
          invitee_note: 'Written up for you.',
          draft_key: `backup-world-draft-${i}`,
        });
        claim = draft.claim_url.split('/claim/')[1];
      }
      world.slugs[i] = slug;
      progress(world.extras.size + 1);
      world.extras.set(slug, {
        token: author.token,
        ...(claim === undefined ? {} : { claim }),
        ...(image === undefined ? {} : { image: image.file }),
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return world;
}

/** Every answer for the stories, keyed by what was asked: status and body, byte for byte. */
export async function answersFor(
  storeCtx: AppContext,
  world: BackupWorld,
  slugs: readonly string[],
  nowMs: number,
): Promise<Map<string, string>> {
  const ctx: AppContext = {
    ...storeCtx,
    store: { ...storeCtx.store, now: () => nowMs },
    config: { ...storeCtx.config, publicBaseUrl: BASE_URL },
  };
  const hono = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl: BASE_URL, allowedOrigins: [] });
  // In process, no socket: the Host header a network client would send is set here.
  const inProcess = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.headers.set('host', new URL(BASE_URL).host);
    return Promise.resolve(hono.fetch(request));
  };
  const mcp = new Client({ name: 'backup-compare', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`), { fetch: inProcess }));
  const answers = new Map<string, string>();
  const get = async (path: string, author?: { slug: string; token: string }): Promise<void> => {
    const headers = author === undefined ? {} : { headers: { Authorization: `Bearer ${author.token}` } };
    const response = await inProcess(`${BASE_URL}${path}`, headers);
    answers.set(
      `GET ${path}${author === undefined ? '' : ` (the author of ${author.slug})`}`,
      `${response.status} ${Buffer.from(await response.arrayBuffer()).toString('base64')}`,
    );
  };
  try {
    for (const slug of slugs) {
      const extra = world.extras.get(slug);
      await get(`/v1/stories/${slug}`);
      await get(`/s/${slug}`);
      const story = JSON.stringify(await mcp.callTool({ name: 'get_story', arguments: { slug } }));
      answers.set(`MCP get_story ${slug}`, story.replace(UNTRUSTED_MARKER, '$1<marker>'));
      if (extra?.image !== undefined) await get(`/i/${extra.image}`);
      if (extra?.claim !== undefined) {
        await get(`/claim/${extra.claim}`);
        await get('/v1/drafts', { slug, token: extra.token });
      }
    }
  } finally {
    await mcp.close();
  }
  return answers;
}
