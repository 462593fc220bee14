// Drafts for tests: one drafter writes a draft with a story of its own title, and the token of
// its claim URL is read back from the answer (the store never holds it).
import { randomUUID } from 'node:crypto';
import type { Caller } from '../../src/app/context/app-context.ts';
import { draftStoryFor } from '../../src/app/drafts/draft-story-for.ts';
import type { AppFixture } from './app-fixture.ts';
import { storyTitled } from './stories.ts';

export interface WrittenDraft {
  id: string;
  claimUrl: string;
  token: string;
}

export async function writtenDraft(
  fixture: AppFixture,
  drafter: Caller,
  title: string,
  extra: { invitee_handle?: string; invitee_note?: string; op_id?: string; draft_key?: string } = {},
): Promise<WrittenDraft> {
  const answer = await draftStoryFor(fixture.ctx(), drafter, {
    markdown: storyTitled(title),
    invitee_note: 'I wrote up what we fixed together yesterday.',
    draft_key: randomUUID(),
    ...extra,
  });
  return { id: answer.draft.id, claimUrl: answer.claim_url, token: answer.claim_url.split('/claim/')[1] ?? '' };
}

/** The stored DRAFT# item. */
export async function storedDraft(fixture: AppFixture, id: string): Promise<Record<string, unknown> | undefined> {
  return (await fixture.state()).find((item) => item.PK === `DRAFT#${id}` && item.SK === 'META');
}
