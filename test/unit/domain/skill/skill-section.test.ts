// The prompts quote sections of the agent skill by heading: a `## ` line inside a code fence (the
// skill's example story) belongs to the section around it, the next real heading ends it.
import { describe, expect, it } from 'vitest';
import { servedSkillSection, skillSection } from '../../../../src/domain/skill/skill-section.ts';

describe('skillSection', () => {
  it('keeps fenced headings inside the section and stops at the next real one', () => {
    const markdown = [
      '# Skill',
      '## Draft',
      'Write it.',
      '```sh',
      '## Reproduce this',
      'Steps:',
      '```',
      'After the fence.',
      '## Publish',
      'Send it.',
    ].join('\n');
    expect(skillSection('Draft', markdown)).toBe(
      ['## Draft', 'Write it.', '```sh', '## Reproduce this', 'Steps:', '```', 'After the fence.'].join('\n'),
    );
  });

  it("the served skill's drafting section runs through its example story and ends before Publish", async () => {
    const section = await servedSkillSection('Draft a story from the session');
    expect(section).toContain('Verify: a burst of writes');
    expect(section).not.toContain('## Publish');
  });

  it('a heading the skill does not have fails loudly, when a prompt quoting it is first asked for', async () => {
    await expect(servedSkillSection('No such section')).rejects.toThrow(/no section "## No such section"/);
  });
});
