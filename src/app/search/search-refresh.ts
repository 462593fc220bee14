// How often a search reads the change log at most (LOREBOOK_SEARCH_REFRESH_MS), apart from the
// search itself so that reading the settings does not load the search engine.
export const DEFAULT_SEARCH_REFRESH_MS = 1000;
