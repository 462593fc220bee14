// GET /v1/stories/{slug}: get_story. The ETag is the revision, for If-Match on PUT.
import { GET_STORY, getStoryOutputSchema } from '../../app/queries/get-story.contract.ts';
import { getStory } from '../../app/queries/get-story.ts';
import { etagOf, queryInput, slugParam } from './request.ts';
import { defineRoute } from './route.ts';

export const getStoryRoute = defineRoute({
  method: 'GET',
  path: '/v1/stories/:slug',
  operationId: 'getStory',
  summary: `Read a story (${GET_STORY})`,
  description:
    'The story in full with its history and counts. Private and hidden stories are 404 to everyone but their author. The ETag is the revision: send it as If-Match when editing.',
  success: { status: 200, description: 'The story.', schema: getStoryOutputSchema },
  errors: ['validation_failed', 'unauthenticated', 'not_found', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx }) {
    queryInput(c, {});
    const story = await getStory(ctx, caller, { slug: slugParam(c) });
    // The author sees private and hidden stories: a shared cache must not keep them.
    return c.json(story, 200, { ETag: etagOf(story.revision), 'Cache-Control': 'private, no-cache' });
  },
});
