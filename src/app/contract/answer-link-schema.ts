// get_story's answered pairs (docs/design.md#answered-fail): `answers` on a success story, `answered_by` on
// a fail story. Only public, listed stories appear; a pair whose other side is hidden, private or
// no longer names it is left out when read.
import { z } from 'zod';

export const answerLinkSchema = z.object({
  slug: z.string(),
  title: z.string(),
  status: z.string().describe('The linked story\'s status: a fail story its author closed shows "n/a".'),
  url: z.string().describe("The linked story's page: an absolute URL on the server's public base URL, to give a person."),
  story_url: z.string().describe('The same absolute URL, under the name every other story link in an answer uses.'),
});

export type AnswerLinkView = z.output<typeof answerLinkSchema>;

export const answersField = z
  .array(answerLinkSchema)
  .optional()
  .describe('On a success story: the fail stories it answers, named (slug or lorebook URL) in its narrative.');

export const answeredByField = z
  .array(answerLinkSchema)
  .optional()
  .describe('On a fail story: the success stories whose narrative names it as answered. Its author may close it with `status: n/a`.');
