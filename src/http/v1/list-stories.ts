// GET /v1/stories: the public feed newest first, one author's stories (?author=), or a search (?q=).
import { z } from 'zod';
import { listStoriesInputSchema, listStoriesOutputSchema } from '../../app/queries/list-stories.contract.ts';
import { listStories } from '../../app/queries/list-stories.ts';
import { SEARCH_STORIES_TOOL, searchStoriesInputSchema, searchStoriesOutputSchema } from '../../app/search/search-stories.contract.ts';
import { validationFailed } from '../../domain/errors.ts';
import { queryInput } from './request.ts';
import { defineRoute } from './route.ts';

const params = {
  q: { field: 'query', kind: 'string', schema: searchStoriesInputSchema.shape.query },
  author: { field: 'author', kind: 'string', schema: listStoriesInputSchema.shape.author },
  limit: { field: 'limit', kind: 'integer', schema: listStoriesInputSchema.shape.limit },
  cursor: { field: 'cursor', kind: 'string', schema: listStoriesInputSchema.shape.cursor },
} as const;

export const listStoriesRoute = defineRoute({
  method: 'GET',
  path: '/v1/stories',
  operationId: 'listStories',
  summary: `List or search stories (${SEARCH_STORIES_TOOL})`,
  description:
    "Without `q`: the public feed newest first, or with `author` (an account id) that author's stories (all of them for the author). With `q`: search over titles, summaries, tags, stacks and bodies (their first 16 KiB) of public stories; every word must match, at most 16 words (`total` counts the matches). Page with `cursor`. No token needed.",
  query: params,
  success: {
    status: 200,
    description: 'A page of story summaries.',
    schema: z.union([listStoriesOutputSchema, searchStoriesOutputSchema]),
  },
  errors: ['validation_failed', 'unauthenticated', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx, search }) {
    const input = queryInput(c, params);
    if (input.query === undefined) return c.json(await listStories(ctx, caller, input), 200);
    if (input.author !== undefined) {
      throw validationFailed('A search covers the public feed; it cannot be narrowed to one author.', {
        author: "Leave author out when you pass q, or leave q out to list the author's stories.",
      });
    }
    return c.json(await search.search(input), 200);
  },
});
