// suggest_for_project: up to three public stories for a project description, each with a why.
import {
  SUGGEST_FOR_PROJECT_TOOL,
  suggestForProjectInputSchema,
  suggestForProjectOutputSchema,
} from '../../app/search/suggest-for-project.contract.ts';
import { defineTool } from '../tool.ts';

export const suggestForProjectTool = defineTool({
  name: SUGGEST_FOR_PROJECT_TOOL,
  title: 'Suggest stories for a project',
  description: [
    'Given a plain description of the project you are working on (stack, what it does, the problem at hand), answers up to 3 public stories most likely to matter for it, each with a one-line `why`.',
    'Good at the start of a task or when stuck: a story with a check tells you how to see whether its problem applies to you (then report_check), one with "Reproduce this" how to repeat what worked.',
    'Read-only; the description is used for this search only and is not stored. Never put secrets, tokens or private code in `context`.',
    'Do not call it to look up specific words (use search_stories) or a known slug (use get_story).',
  ].join('\n'),
  inputSchema: suggestForProjectInputSchema,
  outputSchema: suggestForProjectOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ search }, _caller, args) => search.suggest(args),
});
