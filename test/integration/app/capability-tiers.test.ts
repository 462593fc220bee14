import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { scanStory } from '../../../src/domain/capability/scan.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('capability-tiers');
const alice = caller('alice');

const storyItem = async (slug: string, sk: string) => (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === sk);

describe('publish and edit store the capability report of exactly the stored text', () => {
  it("a first publish stores the scanner's report on META, its summary on REV#1, and answers the tier", async () => {
    const markdown = storyPipingToShell('Piped install on publish');
    const answer = await publishStory(app.ctx(), alice, { markdown });
    const report = scanStory(markdown);
    expect(report.tier).toBe('T4');
    expect((await storyItem(answer.slug, 'META'))?.capability).toEqual(report);
    const summary = {
      tier: 'T4',
      scanner_version: report.scanner_version,
      sha256: report.sha256,
    };
    expect((await storyItem(answer.slug, 'REV#000001'))?.capability).toEqual(summary);
    expect(answer.capability).toEqual(summary);
  });

  it('a republish of the same text writes nothing and answers the same tier; an op_id replay answers the first answer', async () => {
    const markdown = storyPipingToShell('Piped install republished');
    const first = await publishStory(app.ctx(), alice, {
      markdown,
      op_id: 'op-capability-1',
    });
    const before = await app.state();
    app.counter().reset();
    expect(await publishStory(app.ctx(), alice, { markdown })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
    await editStory(app.ctx(), alice, {
      slug: first.slug,
      markdown: storyTitled('Piped install republished'),
      kind: 'correction',
      note: 'No pipe.',
    });
    expect(
      await publishStory(app.ctx(), alice, {
        markdown,
        op_id: 'op-capability-1',
      }),
    ).toEqual({ ...first, replayed: true });
  });

  it('16 parallel publishes of one text store one report, and every answer carries its tier', async () => {
    const markdown = storyPipingToShell('Piped install sixteen times');
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(app.ctx(), alice, { markdown })));
    for (const answer of answers) expect(answer.capability?.tier).toBe('T4');
    expect((await storyItem(answers[0]!.slug, 'META'))?.capability).toEqual(scanStory(markdown));
  });

  it("an edit replaces META's report with the new text's and keeps each revision's own summary", async () => {
    const published = await publishStory(app.ctx(), alice, {
      markdown: storyPipingToShell('Edited away the pipe'),
    });
    const markdown = storyTitled('Edited away the pipe');
    const edit = {
      slug: published.slug,
      markdown,
      kind: 'correction' as const,
      note: 'The pipe was not needed.',
    };
    const edited = await editStory(app.ctx(), alice, edit);
    const report = scanStory(markdown);
    expect(report.tier).toBe('T0');
    expect(edited.capability).toEqual({
      tier: 'T0',
      scanner_version: report.scanner_version,
      sha256: report.sha256,
    });
    expect((await storyItem(published.slug, 'META'))?.capability).toEqual(report);
    expect((await storyItem(published.slug, 'REV#000001'))?.capability).toMatchObject({ tier: 'T4' });
    expect((await storyItem(published.slug, 'REV#000002'))?.capability).toMatchObject({ tier: 'T0', sha256: report.sha256 });
    expect(await editStory(app.ctx(), alice, edit)).toEqual(edited);
  });

  it('a republish that changes only the steps stores the new report: the tier follows the text', async () => {
    const published = await publishStory(app.ctx(), alice, {
      markdown: storyTitled('Steps changed on republish'),
    });
    expect(published.capability?.tier).toBe('T0');
    const republished = await publishStory(app.ctx(), alice, {
      markdown: storyPipingToShell('Steps changed on republish', 'rm -rf ~/'),
    });
    expect(republished.capability?.tier).toBe('T3');
    expect((await storyItem(published.slug, 'META'))?.capability).toMatchObject({
      tier: 'T3',
      findings: [expect.objectContaining({ category: 'destructive' })],
    });
  });
});
