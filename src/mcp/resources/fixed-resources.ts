// The resources every lorebook serves, whatever stories it holds: listed first in resources/list.
// Each text is generated once per process from code (it cannot change while the process runs),
// on its first read: the story format's reference is read off the parser's own rules, which are
// imported then (the parser is a chunk of its own in the Lambda bundle).
import type { Resource } from '@modelcontextprotocol/server';
import { accessTable } from './access-table.ts';
import { guide } from './guide.ts';

export interface FixedResource extends Resource {
  text(): Promise<string>;
}

const once = (make: () => string | Promise<string>): (() => Promise<string>) => {
  let text: Promise<string> | undefined;
  return () =>
    (text ??= Promise.resolve()
      .then(make)
      .catch((error: unknown) => {
        // Not remembered: the next read tries again.
        text = undefined;
        throw error;
      }));
};

export const FIXED_RESOURCES: readonly FixedResource[] = [
  {
    uri: 'lorebook://guide',
    name: 'guide',
    title: 'Using lorebook as an agent',
    description: 'How to find, read, reproduce, check and publish stories with these tools, and the rules a story follows.',
    mimeType: 'text/markdown',
    text: once(guide),
  },
  {
    uri: 'lorebook://story-format',
    name: 'story-format',
    title: 'The story format',
    description: 'The sections, labels, front matter keys and limits a story must meet, as the parser enforces them.',
    mimeType: 'text/markdown',
    text: once(async () => (await import('../../domain/story/story-format-reference.ts')).storyFormatReference()),
  },
  {
    uri: 'lorebook://access',
    name: 'access',
    title: 'Who may call what',
    description: 'Which MCP methods, tools and HTTP routes answer without a token.',
    mimeType: 'text/markdown',
    text: once(accessTable),
  },
];

export const FIXED_BY_URI: ReadonlyMap<string, FixedResource> = new Map(FIXED_RESOURCES.map((resource) => [resource.uri, resource]));
