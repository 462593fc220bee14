// check_story {slug}: the story embedded, the skill's rules for its read-only check, and which
// tool to report with.
import { servedSkillSection } from '../../domain/skill/skill-section.ts';
import type { PromptDefinition } from './prompt.ts';
import { SLUG_ARGUMENT, storyOf, withEmbeddedStory } from './story-argument.ts';

export const checkStoryPrompt: PromptDefinition = {
  name: 'check_story',
  title: 'Check whether a story applies',
  description: "Run a story's read-only check against this project and report has_problem or no_problem with report_check.",
  arguments: [SLUG_ARGUMENT],
  async messages(deps, caller, args) {
    const story = await storyOf(deps, caller, args);
    return withEmbeddedStory(
      story,
      [
        `Run the read-only check of the lorebook story \`${story.slug}\` below against this project, changing nothing, following these rules.`,
        `Then report with report_check: slug \`${story.slug}\`, result \`has_problem\` or \`no_problem\`.`,
        story.has_check ? '' : 'This story has no `## Check if this applies to you` section: tell me so, and report nothing.',
        '',
        await servedSkillSection('Check whether a story applies'),
      ].join('\n'),
    );
  },
};
