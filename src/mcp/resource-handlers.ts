// resources/list, resources/templates/list and resources/read. The list is the fixed resources,
// then the public stories newest first, a page at a time through the public feed's own query and
// cursor; a story is read by its template through get_story's query (./resources/story-resource.ts).
import type { ListResourcesResult, ReadResourceResult, Resource, Server } from '@modelcontextprotocol/server';
import type { AppContext } from '../app/context/app-context.ts';
import { DEFAULT_LIST_LIMIT } from '../app/queries/list-stories.contract.ts';
import { listStories } from '../app/queries/list-stories.ts';
import { MOVES_WITH_STORIES } from './cache-hints.ts';
import { FIXED_BY_URI, FIXED_RESOURCES, type FixedResource } from './resources/fixed-resources.ts';
import { answeredOrRefused } from './resources/protocol-error.ts';
import { readStoryMarkdown, refuseLongUri, STORY_TEMPLATE, unknownResource } from './resources/story-resource.ts';
import { STORY_URI_PREFIX, storyResource } from './story-link.ts';

/** Stories per resources/list page: the feed's default page, so one page is one bounded feed read. */
export const RESOURCE_PAGE_SIZE = DEFAULT_LIST_LIMIT;

const listed = ({ uri, name, title, description, mimeType }: FixedResource): Resource => ({ uri, name, title, description, mimeType });

async function listResources(ctx: AppContext, cursor: string | undefined): Promise<ListResourcesResult> {
  const page = await listStories(
    ctx,
    undefined,
    cursor === undefined ? { limit: RESOURCE_PAGE_SIZE } : { limit: RESOURCE_PAGE_SIZE, cursor },
  );
  return {
    resources: [...(cursor === undefined ? FIXED_RESOURCES.map(listed) : []), ...page.stories.map(storyResource)],
    ...(page.cursor === undefined ? {} : { nextCursor: page.cursor }),
  };
}

/**
 * `cacheScope`/`ttlMs` on a result the handler builds are sent as they are, in either era; the SDK
 * adds the server-wide hints only to 2026-07-28 answers. So a story's own, shorter hint is set only
 * for a request that carried the 2026-07-28 envelope: 2025-era answers keep their old shape.
 */
async function readResource(ctx: AppContext, uri: string, modern: boolean): Promise<ReadResourceResult> {
  refuseLongUri(uri);
  const fixed = FIXED_BY_URI.get(uri);
  if (fixed !== undefined) return { contents: [{ uri, mimeType: fixed.mimeType as string, text: await fixed.text() }] };
  // A story moves with its author (the server-wide hint is for the fixed resources).
  if (uri.startsWith(STORY_URI_PREFIX)) return { contents: [await readStoryMarkdown(ctx, uri)], ...(modern ? MOVES_WITH_STORIES : {}) };
  throw unknownResource(uri);
}

export function serveResources(server: Server, ctx: AppContext): void {
  server.setRequestHandler('resources/list', (request) => answeredOrRefused(() => listResources(ctx, request.params?.cursor)));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [STORY_TEMPLATE] }));
  server.setRequestHandler('resources/read', (request, handling) =>
    // A URI that reaches not-found is at most MAX_RESOURCE_URI_CHARS long: a longer one is refused as bad input first.
    answeredOrRefused(() => readResource(ctx, request.params.uri, handling.mcpReq.envelope !== undefined), { uri: request.params.uri }),
  );
}
