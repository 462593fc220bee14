// Stories for the page tests, written through the real use cases (publish, report, check, edit,
// hide) on the suite's table: a story with every badge and count, a withdrawn one, a private one.
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { editStory } from '../../src/app/edit-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportCheck } from '../../src/app/report-check.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { caller } from './app-fixture.ts';
import { storyTitled } from './stories.ts';

export const CORRECTION_NOTE = 'Step 1 needs the condition on the same UpdateItem, not a second call.';

/**
 * Published, reworded, added to and corrected; reproduced by four people (2 worked, 1 partial,
 * 1 failed) and checked by three (1 had it, 2 didn't).
 */
export async function storyWithEverything(ctx: AppContext, author: Caller, title: string, extraFrontMatter = ''): Promise<string> {
  const first = storyTitled(title).replace('status: n/a\n', `status: n/a\n${extraFrontMatter}`);
  const { slug } = await publishStory(ctx, author, { markdown: first });
  const reworded = first.replace('One evening two agents', 'One night two agents');
  await editStory(ctx, author, { slug, markdown: reworded, kind: 'rephrase' });
  const added = reworded.replace('returns the first\nanswer.', 'returns the first\nanswer. It has held for a month.');
  await editStory(ctx, author, { slug, markdown: added, kind: 'addition' });
  const corrected = added.replace('1. Replace the read-then-write', '1. Replace the read-then-write in the same UpdateItem');
  await editStory(ctx, author, { slug, markdown: corrected, kind: 'correction', note: CORRECTION_NOTE });
  const results = { bob: 'worked', carol: 'partial', dave: 'failed', erin: 'worked' } as const;
  for (const [name, result] of Object.entries(results)) await reportReproduction(ctx, caller(name), { slug, result });
  const checks = { bob: 'has_problem', carol: 'no_problem', dave: 'no_problem' } as const;
  for (const [name, result] of Object.entries(checks)) await reportCheck(ctx, caller(name), { slug, result });
  return slug;
}

export async function withdrawnStory(ctx: AppContext, author: Caller, title: string): Promise<string> {
  const { slug } = await publishStory(ctx, author, { markdown: storyTitled(title) });
  await setVisibility(ctx, author, { slug, hidden: true });
  return slug;
}

export async function privateStory(ctx: AppContext, author: Caller, title: string): Promise<string> {
  return (await publishStory(ctx, author, { markdown: storyTitled(title, { visibility: 'private' }) })).slug;
}
