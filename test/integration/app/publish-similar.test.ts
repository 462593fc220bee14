// publish_story's `similar`: related public stories from the real search index over DynamoDB Local,
// and the twice-safety of an answer that depends on what else is published: a repeat, 16 parallel
// deliveries and an op_id replay answer the first publish's list even after more stories arrived.
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { opKey, storyKey } from '../../../src/store/keys.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { updateStoredItem } from '../../helpers/stored-items.ts';
import { type TopicStory, topicStory } from '../../helpers/topic-stories.ts';

const app = useAppFixture('publish-similar');
const alice = caller('alice');
const bob = caller('bob');
let search: ReturnType<typeof createStorySearch> | undefined;

/** As both surfaces do: publish with the story search, then tell the search the feed changed. */
async function publish(raw: Record<string, unknown>, who = alice) {
  search ??= createStorySearch(app.ctx());
  const answer = await publishStory(app.ctx(), who, raw, search);
  search.invalidate();
  return answer;
}

const similarSlugs = (answer: { similar: Array<{ slug: string }> }): string[] => answer.similar.map((story) => story.slug);

const kafka = (title: string, extra: Partial<TopicStory> = {}): string =>
  topicStory({ title, tags: ['kafka', 'consumers'], stack: ['java', 'kafka'], summary: 'Our consumers kept rebalancing.', ...extra });

describe('publish answers similar public stories', () => {
  it('a later story lists the earlier one it resembles, with its summary fields and absolute URL', async () => {
    const a = await publish({ markdown: kafka('Kafka consumer lag fixed by pinning partitions') });
    expect(a.similar).toEqual([]);
    const b = await publish({ markdown: kafka('Kafka rebalances stopped after raising the poll interval') }, bob);
    expect(b.similar).toEqual([
      {
        slug: a.slug,
        title: 'Kafka consumer lag fixed by pinning partitions',
        type: 'success',
        status: 'n/a',
        relation: 'related',
        why: expect.stringMatching(/^Matches stack java, kafka, tags kafka, consumers/),
        story_url: `${app.ctx().config.publicBaseUrl}/s/${a.slug}`,
      },
    ]);
  });

  it('a fail story lists only success stories, as ones that may answer it', async () => {
    const gradle = (title: string, type: 'success' | 'fail') =>
      topicStory({ title, type, tags: ['gradle', 'caching'], stack: ['gradle', 'kotlin'], summary: 'The gradle build cache never hit.' });
    const fixed = await publish({ markdown: gradle('Gradle build cache hits after fixing relative paths', 'success') });
    await publish({ markdown: gradle('Gradle cache misses on every CI run', 'fail') });
    const asked = await publish({ markdown: gradle('Gradle remote cache ignored after three attempts', 'fail') }, bob);
    expect(asked.similar).toEqual([expect.objectContaining({ slug: fixed.slug, type: 'success', relation: 'may_answer' })]);
  });

  it('never a hidden or a private story', async () => {
    const terraform = (title: string, visibility?: 'private') =>
      topicStory({
        title,
        tags: ['terraform', 'state'],
        stack: ['terraform', 'aws'],
        summary: 'Terraform state locks stayed held.',
        ...(visibility === undefined ? {} : { visibility }),
      });
    const shown = await publish({ markdown: terraform('Terraform state lock released by a timeout') });
    const hidden = await publish({ markdown: terraform('Terraform state lock cleared with force-unlock') });
    await setVisibility(app.ctx(), alice, { slug: hidden.slug, hidden: true });
    search?.invalidate();
    const privateOne = await publish({ markdown: terraform('Terraform state lock notes for myself', 'private') });
    const asked = await publish({ markdown: terraform('Terraform state lock stuck after a crash') }, bob);
    expect(similarSlugs(asked)).toEqual([shown.slug]);
    expect(similarSlugs(asked)).not.toContain(privateOne.slug);
  });
});

describe("publish's similar is the first answer, however often it lands", () => {
  const postgres = (title: string, extra: Partial<TopicStory> = {}): string =>
    topicStory({ title, tags: ['postgres', 'vacuum'], stack: ['postgres', 'python'], summary: 'Autovacuum never caught up.', ...extra });

  it('an op_id replay and a repeat after a similar story was published answer the first list, and write nothing', async () => {
    const a = await publish({ markdown: postgres('Postgres autovacuum tuned per table') });
    const bMarkdown = postgres('Postgres bloat halved by vacuuming hot tables hourly');
    const b = await publish({ markdown: bMarkdown, op_id: 'op-similar-b' });
    expect(similarSlugs(b)).toEqual([a.slug]);
    const c = await publish({ markdown: postgres('Postgres vacuum workers raised to eight') }, bob);
    expect(similarSlugs(c).sort()).toEqual([a.slug, b.slug].sort());

    const before = await app.state();
    app.counter().reset();
    const { replayed, ...replay } = await publish({ markdown: bMarkdown, op_id: 'op-similar-b' });
    expect(replayed).toBe(true);
    expect(JSON.stringify(replay)).toBe(JSON.stringify(b));
    const repeat = await publish({ markdown: bMarkdown });
    expect(JSON.stringify(repeat)).toBe(JSON.stringify(b));
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel first publishes and 16 deliveries of one op_id all answer the same similar list', async () => {
    const a = await publish({ markdown: postgres('Postgres autovacuum cost limit raised') });
    const parallel = await Promise.all(
      Array.from({ length: 16 }, () => publish({ markdown: postgres('Postgres vacuum scheduled by pg_cron at night') })),
    );
    expect(similarSlugs(parallel[0]!)).toContain(a.slug);
    for (const answer of parallel) expect(JSON.stringify(answer)).toBe(JSON.stringify(parallel[0]));

    const sameOp = await Promise.all(
      Array.from({ length: 16 }, () => publish({ markdown: postgres('Postgres vacuum freeze run before the wraparound'), op_id: 'op-16' })),
    );
    const withoutFlag = ({ replayed: _flag, ...answer }: (typeof sameOp)[number]) => answer;
    expect(similarSlugs(sameOp[0]!)).toContain(a.slug);
    for (const answer of sameOp) expect(JSON.stringify(withoutFlag(answer))).toBe(JSON.stringify(withoutFlag(sameOp[0]!)));
    expect(sameOp.filter((answer) => answer.replayed === true)).toHaveLength(15);
  });

  it('a republish answers the first publish list; an edit answers no similar at all', async () => {
    const a = await publish({ markdown: postgres('Postgres vacuum verbose showed dead tuples') });
    const b = await publish({ markdown: postgres('Postgres vacuum after bulk deletes') });
    expect(similarSlugs(b)).toContain(a.slug);
    const later = await publish({ markdown: postgres('Postgres vacuum analyze fixed bad plans') }, bob);
    const republished = await publish({ markdown: postgres('Postgres vacuum after bulk deletes', { extra: 'Later I batched them.' }) });
    expect(republished.revision).toBe(2);
    expect(republished.similar).toEqual(b.similar);
    expect(similarSlugs(republished)).not.toContain(later.slug);

    const edited = await editStory(app.ctx(), alice, {
      slug: b.slug,
      markdown: postgres('Postgres vacuum after bulk deletes', { extra: 'Later I batched them by week.' }),
      kind: 'addition',
    });
    expect(edited.revision).toBe(3);
    expect(edited).not.toHaveProperty('similar');
  });

  it('an op record and a story from before publish answered similar replay with an empty list', async () => {
    await publish({ markdown: postgres('Postgres vacuum index cleanup disabled') });
    const markdown = postgres('Postgres vacuum truncate disabled for replicas');
    const first = await publish({ markdown, op_id: 'op-before-similar' });
    expect(first.similar).not.toEqual([]);
    await updateStoredItem(app.ctx(), opKey(alice.account, 'op-before-similar'), {
      expression: 'REMOVE outcome.#similar',
      names: { '#similar': 'similar' },
    });
    await updateStoredItem(app.ctx(), storyKey(first.slug), { expression: 'REMOVE #similar', names: { '#similar': 'similar' } });

    const { similar: _first, ...rest } = first;
    expect(await publish({ markdown, op_id: 'op-before-similar' })).toEqual({ ...rest, similar: [], replayed: true });
    expect(await publish({ markdown })).toEqual({ ...rest, similar: [] });
  });
});
