// How a listed story relates to one being published (a publish answer's `similar`): a fail story
// asks a question, so only success stories are offered to it, as stories that may answer it; any
// other story is offered stories of either type, as related ones.
import type { StoryType } from './story-types.ts';

export const STORY_RELATIONS = ['may_answer', 'related'] as const;
export type StoryRelation = (typeof STORY_RELATIONS)[number];

/** A related public story as the publish answer lists it; its absolute story_url is added on the way out. */
export interface RelatedStory {
  slug: string;
  title: string;
  type: string;
  status: string;
  relation: StoryRelation;
  why: string;
}

/** What `candidate` is to a story of type `published`, or undefined when it is not to be offered at all. */
export function relationTo(published: StoryType, candidate: string): StoryRelation | undefined {
  if (published === 'fail') return candidate === 'success' ? 'may_answer' : undefined;
  return 'related';
}
