// The `slug` argument of reproduce_story and check_story, and the story it names embedded as a
// resource (lorebook://story/{slug}), read as get_story reads it for this caller.
import type { PromptArgument, PromptMessage } from '@modelcontextprotocol/server';
import type { Caller } from '../../app/app-context.ts';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import { getStory } from '../../app/queries/get-story.ts';
import { validationFailed } from '../../domain/errors.ts';
import { STORY_MIME_TYPE, storyUri } from '../story-link.ts';
import type { ToolDeps } from '../tool.ts';

export const SLUG_ARGUMENT: PromptArgument = {
  name: 'slug',
  description: 'The story slug, as search_stories returns it (completion/complete suggests them).',
  required: true,
};

export async function storyOf({ ctx }: ToolDeps, caller: Caller | undefined, args: Readonly<Record<string, string>>): Promise<StoryView> {
  const slug = args.slug;
  if (slug === undefined || slug === '') {
    throw validationFailed('This prompt needs the story it is about.', {
      slug: 'Pass `slug`, e.g. from search_stories or completion/complete.',
    });
  }
  return getStory(ctx, caller, { slug });
}

export const embeddedStory = (story: StoryView): PromptMessage => ({
  role: 'user',
  content: { type: 'resource', resource: { uri: storyUri(story.slug), mimeType: STORY_MIME_TYPE, text: story.markdown } },
});
