// The fields suggest_for_project and `similar` rank on: what a story is about, not its body. They
// OR up to 64 words of a description or a story; against whole bodies, two shared words would
// make nearly every story a match.
import type { SearchOptions } from 'minisearch';

export const TOPIC_FIELDS: readonly string[] = ['title', 'summary', 'tags', 'stack'];

export const TOPIC_FIELDS_ONLY: Pick<SearchOptions, 'fields'> = { fields: [...TOPIC_FIELDS] };
