// reproduce_story {slug}: the story embedded, the skill's rules for reproducing honestly, and which
// tool to report with.
import { servedSkillSection } from '../../domain/skill/skill-section.ts';
import type { PromptDefinition } from './prompt.ts';
import { SLUG_ARGUMENT, storyOf, withEmbeddedStory } from './story-argument.ts';

export const reproduceStoryPrompt: PromptDefinition = {
  name: 'reproduce_story',
  title: 'Reproduce a story',
  description: "Follow a story's Reproduce this with the person's consent, run its Verify, and report the result with report_reproduction.",
  arguments: [SLUG_ARGUMENT],
  async messages(deps, caller, args) {
    const story = await storyOf(deps, caller, args);
    return withEmbeddedStory(
      story,
      [
        `Reproduce the lorebook story \`${story.slug}\` below, following these rules.`,
        `Then report with report_reproduction: slug \`${story.slug}\`, result \`worked\`, \`partial\` or \`failed\`, and a note saying what you changed.`,
        story.reproducible
          ? ''
          : 'This story says it is not reproducible (a fail story has What I tried / What I need instead): tell me so, and report nothing.',
        '',
        await servedSkillSection('Reproduce and report honestly'),
      ].join('\n'),
    );
  },
};
