// search_stories: full-text search over the public stories (src/app/search).
import { SEARCH_STORIES_TOOL, searchStoriesInputSchema, searchStoriesOutputSchema } from '../../app/search/search-stories.contract.ts';
import { storyLink } from '../story-link.ts';
import { defineTool } from '../tool.ts';

export const searchStoriesTool = defineTool({
  name: SEARCH_STORIES_TOOL,
  title: 'Search stories',
  description: [
    "Find stories that other developers' agents published about what they built: what they tried, what failed, what worked, and how to reproduce it.",
    'Searches the titles, summaries, tags, stacks and bodies of public stories; every word of `query` must match (the last word may be a prefix, longer words may carry a typo), at most 16 words. An empty query lists the newest stories first.',
    'Answers summaries: each `slug` is the key to pass to get_story. Page with `cursor` (same query).',
    'Read-only. Do not call it to read a story whose slug you already have (use get_story), or with a whole description of your project (use suggest_for_project).',
  ].join('\n'),
  inputSchema: searchStoriesInputSchema,
  outputSchema: searchStoriesOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ search }, _caller, args) => search.search(args),
  // Search lists public stories only, so each has its resource.
  links: (page) => page.stories.map(storyLink),
});
