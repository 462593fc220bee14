// How a story is named as an MCP resource, lorebook://story/{slug}: its URI, its resources/list
// entry and the resource_link that get_story and search_stories results carry to it.
import type { Resource, ResourceLink } from '@modelcontextprotocol/server';
import type { StorySummary } from '../app/contract/story-shapes.ts';

export const STORY_URI_PREFIX = 'lorebook://story/';
export const STORY_MIME_TYPE = 'text/markdown';

export const storyUri = (slug: string): string => `${STORY_URI_PREFIX}${slug}`;

type StoryNaming = Pick<StorySummary, 'slug' | 'title' | 'summary'>;

/** A story as a resources/list entry. */
export function storyResource(story: StoryNaming): Resource {
  return { uri: storyUri(story.slug), name: story.slug, title: story.title, description: story.summary, mimeType: STORY_MIME_TYPE };
}

/** A story as a tool result's resource_link content item. */
export const storyLink = (story: StoryNaming): ResourceLink => ({ type: 'resource_link', ...storyResource(story) });
