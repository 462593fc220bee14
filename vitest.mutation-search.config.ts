// vitest config of the targeted mutation run over the search's cost bounds (stryker.search.config.json,
// `npm run test:mutation:search`): the query plans of search_stories, suggestions and `similar`,
// and the search index's turns (the fair queue's search slot, the caller the routes bind, a
// publish whose `similar` is refused for load). Only the tests that exercise those files, on
// DynamoDB Local: Stryker's dry run executes every included test once with coverage.
import { defineConfig } from 'vitest/config';

const storage = {
  globalSetup: ['test/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/app/search/**/*.test.ts', 'test/unit/offload/fair-queue.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/app/search-turns.test.ts',
            'test/integration/app/story-search.test.ts',
            'test/integration/app/publish-similar.test.ts',
          ],
          ...storage,
        },
      },
    ],
  },
});
