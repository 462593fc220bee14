// The index's answers from an index this thread holds (live-story-index.ts): what a Lambda
// container and the tests use, and what the index thread runs under `npm start`.
import type { AppContext } from '../context/app-context.ts';
import type { IndexAnswers } from './index-answers.ts';
import { createLiveIndex, type LiveIndexOptions } from './live-story-index.ts';
import { hasWords, rankForQuery, rankForTopics } from './search-ranking.ts';
import { similarCandidates } from './similar-stories.ts';
import { completeSlugs } from './slug-completion.ts';

export function localIndexAnswers(ctx: AppContext, options: LiveIndexOptions): IndexAnswers {
  const live = createLiveIndex(ctx, options);
  return {
    async rank(query, offset, count) {
      const index = await live.current();
      const ranked = hasWords(query) ? rankForQuery(index, query).map((result) => result.slug) : index.newestFirst();
      return { slugs: ranked.slice(offset, offset + count), total: ranked.length };
    },
    async suggest(terms, count) {
      const index = await live.current();
      return rankForTopics(index, terms)
        .slice(0, count)
        .map((result) => ({ slug: result.slug, terms: result.terms }));
    },
    async similar(query) {
      return similarCandidates(await live.current(), query);
    },
    async completeSlug(typed) {
      const index = await live.current();
      return completeSlugs(
        index.newestFirst().map((slug) => ({ slug, title: index.entry(slug)?.title ?? '' })),
        typed,
      );
    },
    touch: (slug) => live.touch(slug),
    forget: () => live.forget(),
  };
}
