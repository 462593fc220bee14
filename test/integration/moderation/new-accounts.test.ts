// New accounts (design.md#new-accounts): a new account's 4th first publish in a UTC day is rate_limited with
// nothing written, 16 parallel first publishes let exactly 3 through, and reproductions by new
// accounts are counted apart from established accounts' ones.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { DEFAULT_APP_CONFIG } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

// The limits as deployed (the fixture turns them off for other suites).
const app = useAppFixture('new-accounts', {
  storiesPerDay: DEFAULT_APP_CONFIG.storiesPerDay,
  newAccountStoriesPerDay: DEFAULT_APP_CONFIG.newAccountStoriesPerDay,
});
const DAY_MS = 24 * 60 * 60 * 1000;

describe('a new account publishes at most 3 new stories a UTC day', () => {
  it('the 4th is rate_limited until midnight UTC and writes nothing; republishing one of the 3 is not counted', async () => {
    app.freeze();
    const newcomer = caller('limited');
    await ensureAccount(app.ctx(), newcomer);
    const slugs = [];
    for (const title of ['First of three', 'Second of three', 'Third of three']) {
      slugs.push((await publishStory(app.ctx(), newcomer, { markdown: storyTitled(title) })).slug);
    }
    await publishStory(app.ctx(), newcomer, { markdown: storyTitled('First of three') });
    const before = await app.state();
    const now = app.ctx().store.now();
    const refused = publishStory(app.ctx(), newcomer, { markdown: storyTitled('Fourth is one too many') });
    await expect(refused).rejects.toMatchObject({ code: 'rate_limited', retryAfterMs: DAY_MS - (now % DAY_MS) });
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel first publishes of distinct stories: exactly 3 succeed, the others are rate_limited', async () => {
    const newcomer = caller('parallel');
    await ensureAccount(app.ctx(), newcomer);
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, n) => publishStory(app.ctx(), newcomer, { markdown: storyTitled(`Parallel story number ${n}`) })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results.filter((r) => r.status === 'rejected')) expect(result.reason).toMatchObject({ code: 'rate_limited' });
    const day = (await app.state()).find((item) => item.PK === `PUBDAY#${newcomer.account}`);
    expect(day?.slugs).toHaveLength(3);
  });
});

describe('reader counts separate new accounts from established ones', () => {
  it('ten fresh accounts reporting "worked" do not make the story look reproduced 10×', async () => {
    const author = caller('counted-author');
    const { slug } = await publishStory(app.ctx(), author, { markdown: storyTitled('Counted apart') });
    const veteran = caller('counted-veteran');
    await ensureAccount(app.ctx(), veteran);
    app.advance(DAY_MS + 1);
    const fresh = Array.from({ length: 10 }, (_, n) => caller(`fresh-${n}`));
    for (const account of fresh) await ensureAccount(app.ctx(), account);
    await Promise.all(fresh.map((account) => reportReproduction(app.ctx(), account, { slug, result: 'worked' })));
    await reportReproduction(app.ctx(), veteran, { slug, result: 'partial' });

    const story = await getStory(app.ctx(), undefined, { slug });
    expect(story.counts).toEqual({ worked: 0, partial: 1, failed: 0 });
    expect(story.reproducers_count).toBe(1);
    expect(story.new_account_counts).toEqual({ worked: 10, partial: 0, failed: 0 });
  });
});
