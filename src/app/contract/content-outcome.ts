// The answer of a content write (publish_story, and edit_story on top): the story as stored.
import { z } from 'zod';
import { capabilitySummarySchema } from './capability-schemas.ts';
import { type Outcome, replayedField } from './replayed.ts';
import { visibilitySchema } from './story-shapes.ts';

export const contentOutcomeSchema = z.object({
  slug: z.string().describe('The story key: pass it to get_story, edit_story and the report tools.'),
  revision: z.number().int().describe('The current revision; pass it as base_revision to edit on top of it.'),
  content_hash: z.string(),
  title: z.string(),
  visibility: visibilitySchema,
  hidden: z.boolean(),
  url: z.string().describe("The story page's absolute URL, on the server's public base URL (the same as story_url)."),
  capability: capabilitySummarySchema,
  story_url: z.string().describe("The story page's absolute URL, on the server's public base URL: the link to give a person."),
  replayed: replayedField,
});

export type ContentOutcome = Outcome<typeof contentOutcomeSchema>;
/** What a content write's plan answers and its op record keeps: story_url is added on the way out, from the configured base URL. */
export type StoredContentOutcome = Omit<ContentOutcome, 'story_url'>;
