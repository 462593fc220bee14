// write_story: turn this session into a draft story, by the skill's own drafting rules.
import { servedSkillSection } from '../../domain/skill/skill-section.ts';
import type { PromptDefinition } from './prompt.ts';
import { userText } from './prompt.ts';

export const writeStoryPrompt: PromptDefinition = {
  name: 'write_story',
  title: 'Write a story from this session',
  description: 'Draft a lorebook story about what was built or what broke in this session, for the person to approve before publish_story.',
  arguments: [],
  messages: async () => [
    userText(
      [
        'Turn this session into a draft lorebook story, following these rules (lorebook://story-format has the exact sections, labels and limits).',
        'Show me the whole draft and publish it with publish_story only after I approve it, as I approved it.',
        '',
        await servedSkillSection('Draft a story from the session'),
      ].join('\n'),
    ),
  ],
};
