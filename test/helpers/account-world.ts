// A person with a history, for the account deletion tests (design.md#account-deletion): alice wrote three stories
// (one private), reproduced two of bob's and checked one, holds a token and a notification (bob
// reproduced one of hers); carol reproduced bob's first story too, so bob's counts do not drop to zero.

import { ensureAccount } from '../../src/app/account/accounts.ts';
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportCheck } from '../../src/app/report-check.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { mintToken, tokenId } from '../../src/auth/token-secret.ts';
import { createTokenItems } from '../../src/store/identity/token-items.ts';
import { writeAtomically } from '../../src/store/run-write.ts';
import { epochSeconds } from '../../src/store/store.ts';
import { storyTitled } from './stories.ts';

export interface AccountWorld {
  aliceStories: string[];
  bobStories: string[];
  aliceToken: string;
}

export async function writeAccountWorld(
  ctx: AppContext,
  people: { alice: Caller; bob: Caller; carol: Caller },
  tick: () => void = () => undefined,
): Promise<AccountWorld> {
  const { alice, bob, carol } = people;
  for (const person of [alice, bob, carol]) await ensureAccount(ctx, person);
  const aliceStories: string[] = [];
  for (const [index, visibility] of (['public', 'public', 'private'] as const).entries()) {
    tick();
    aliceStories.push(
      (await publishStory(ctx, alice, { markdown: storyTitled(`Alice's story number ${index + 1}`, { visibility }) })).slug,
    );
  }
  const bobStories: string[] = [];
  for (const title of ["Bob's first story", "Bob's second story"]) {
    tick();
    bobStories.push((await publishStory(ctx, bob, { markdown: storyTitled(title) })).slug);
  }
  const [bob1, bob2] = bobStories as [string, string];
  tick();
  await reportReproduction(ctx, carol, { slug: bob1, result: 'worked' });
  await reportReproduction(ctx, alice, { slug: bob1, result: 'worked' });
  await reportReproduction(ctx, alice, { slug: bob2, result: 'failed' });
  await reportCheck(ctx, alice, { slug: bob1, result: 'has_problem' });
  await reportReproduction(ctx, bob, { slug: aliceStories[0] as string, result: 'partial' });
  const aliceToken = mintToken();
  const now = ctx.store.now();
  await writeAtomically(
    ctx.store,
    createTokenItems({
      token_hash: tokenId(aliceToken),
      account: alice.account,
      created_at: new Date(now).toISOString(),
      expires_at: epochSeconds(now) + 3600,
    }),
  );
  return { aliceStories, bobStories, aliceToken };
}
