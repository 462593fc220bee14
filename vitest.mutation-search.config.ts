// vitest config of the targeted mutation run over the search's cost bounds (stryker.search.config.json,
// `npm run test:mutation:search`): the query plans of search_stories, suggestions and `similar`,
// and the search index's turns (the fair queue's search slot, its answer bound and the
// withdrawal of a cut caller's job, the caller the routes bind, a publish whose `similar` is
// refused for load); the heavy places and their rest; and an account's large bodies, read one call at a time and not at all once
// its CPU minute is spent. Only the tests that exercise those files, on DynamoDB Local.
import { targetedMutationConfig } from './test/helpers/targeted-mutation-config.ts';

export default targetedMutationConfig({
  unit: [
    'test/unit/app/search/**/*.test.ts',
    'test/unit/offload/fair-queue.test.ts',
    'test/unit/offload/heavy-gate.test.ts',
    'test/unit/http/large-body-line.test.ts',
    'test/unit/http/body.test.ts',
  ],
  integration: [
    'test/integration/app/search-turns.test.ts',
    'test/integration/app/story-search.test.ts',
    'test/integration/app/publish-similar.test.ts',
    'test/integration/images/large-upload-cpu-minute.test.ts',
  ],
});
