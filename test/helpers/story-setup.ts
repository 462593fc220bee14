// The write use cases are tested on "a story by one author" and then on what is stored about it;
// every such suite had its own copy of these steps. Bound to a suite's fixture and author.
import { expect } from 'vitest';
import type { Caller } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import type { AppFixture } from './app-fixture.ts';
import { storedNotifications } from './inbox.ts';
import { storyTitled } from './stories.ts';

type Item = Record<string, unknown>;

export interface StorySetup {
  /** Publishes a story titled `title` by the author; returns its slug. */
  published(title: string, options?: Parameters<typeof storyTitled>[1]): Promise<string>;
  /** The story's META item as stored; fails the test when there is none. */
  storyMeta(slug: string): Promise<Item>;
  /** The account's REPRO# item under the story, if any. */
  reproduction(slug: string, account: string): Promise<Item | undefined>;
  /** The account's CHECK# item under the story, if any. */
  checkReport(slug: string, account: string): Promise<Item | undefined>;
  /** The notifications about the story in its author's inbox. */
  authorInbox(slug: string): Promise<Item[]>;
}

export function storySetup(fixture: AppFixture, author: Caller): StorySetup {
  const storyItem = async (slug: string, sk: string): Promise<Item | undefined> =>
    (await fixture.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === sk);
  return {
    published: async (title, options = {}) => (await publishStory(fixture.ctx(), author, { markdown: storyTitled(title, options) })).slug,
    storyMeta: async (slug) => {
      const meta = await storyItem(slug, 'META');
      expect(meta).toBeDefined();
      return meta as Item;
    },
    reproduction: (slug, account) => storyItem(slug, `REPRO#${account}`),
    checkReport: (slug, account) => storyItem(slug, `CHECK#${account}`),
    authorInbox: (slug) => storedNotifications(fixture, { account: author.account, story: slug }),
  };
}
