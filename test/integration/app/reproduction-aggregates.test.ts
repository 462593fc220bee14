// get_story's aggregates from the reproduction metadata, with reports written through the real
// use cases on DynamoDB Local: nothing at 2 counted reports, every figure at 3, back to nothing
// when a withdrawal leaves 2, buckets that move when a report changes, and no read at all below 3.
import { describe, expect, it } from 'vitest';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { withdrawReproduction } from '../../../src/app/withdraw-reproduction.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('reproduction-aggregates');
const alice = caller('alice');
const { published } = storySetup(app, alice);

const reporter = (index: number) => caller(`reporter-${index}`);
const reporters = Array.from({ length: 6 }, (_, index) => reporter(index));

/** A report as worklore's skill sends it: agent and env as objects, with both measurements. */
const fullReport = (slug: string, family: string, minutes: number) => ({
  slug,
  result: 'worked' as const,
  agent: { name: family, version: '1.0.0', model: 'some-model' },
  env: { os: 'linux', node: '22' },
  duration_min: minutes,
  tokens: minutes * 1000,
});

const aggregatesOf = async (slug: string) => (await getStory(app.ctx(), undefined, { slug })).aggregates;

describe('get_story shows aggregates only from 3 counted reports on', () => {
  it('at 2 reports there is no figure; at 3 every figure is there', async () => {
    const slug = await published('Aggregated at three');
    await reportReproduction(app.ctx(), reporter(0), fullReport(slug, 'Claude Code', 10));
    await reportReproduction(app.ctx(), reporter(1), fullReport(slug, 'claude-code', 20));
    expect(await aggregatesOf(slug)).toEqual({});

    await reportReproduction(app.ctx(), reporter(2), fullReport(slug, 'claude_code', 60));
    expect(await aggregatesOf(slug)).toEqual({
      by_agent_family: { reports: 3, buckets: [{ name: 'claude-code', reports: 3 }], other: 0 },
      by_os: { reports: 3, buckets: [{ name: 'linux', reports: 3 }], other: 0 },
      duration_min: { reports: 3, median: 20 },
      tokens: { reports: 3, median: 20_000 },
    });
  });

  it("the author's own (uncounted) report is left out: 2 reporters and the author show nothing", async () => {
    const slug = await published('Author reports too');
    await reportReproduction(app.ctx(), alice, fullReport(slug, 'codex', 1));
    await reportReproduction(app.ctx(), reporter(0), fullReport(slug, 'codex', 2));
    await reportReproduction(app.ctx(), reporter(1), fullReport(slug, 'codex', 3));
    expect(await aggregatesOf(slug)).toEqual({});
    await reportReproduction(app.ctx(), reporter(2), fullReport(slug, 'codex', 4));
    expect((await aggregatesOf(slug)).duration_min).toEqual({ reports: 3, median: 3 });
  });

  it('a withdrawal back to 2 reports takes every figure away again', async () => {
    const slug = await published('Withdrawn below three');
    for (const [index, reporter] of reporters.slice(0, 3).entries())
      await reportReproduction(app.ctx(), reporter, fullReport(slug, 'aider', index));
    expect(Object.keys(await aggregatesOf(slug)).sort()).toEqual(['by_agent_family', 'by_os', 'duration_min', 'tokens']);
    await withdrawReproduction(app.ctx(), reporter(1), { slug });
    expect(await aggregatesOf(slug)).toEqual({});
  });

  it('a changed report moves its family from one bucket to the other', async () => {
    const slug = await published('Changed agent');
    for (const reporter of reporters.slice(0, 3)) await reportReproduction(app.ctx(), reporter, fullReport(slug, 'claude-code', 5));
    for (const reporter of reporters.slice(3, 5)) await reportReproduction(app.ctx(), reporter, fullReport(slug, 'codex', 5));
    expect((await aggregatesOf(slug)).by_agent_family).toEqual({ reports: 5, buckets: [{ name: 'claude-code', reports: 3 }], other: 2 });

    await reportReproduction(app.ctx(), reporter(0), fullReport(slug, 'codex', 5));
    expect((await aggregatesOf(slug)).by_agent_family).toEqual({ reports: 5, buckets: [{ name: 'codex', reports: 3 }], other: 2 });
  });

  it('agent and env sent as plain strings count in no breakdown; each field needs its own 3', async () => {
    const slug = await published('String metadata');
    for (const reporter of reporters.slice(0, 3)) {
      await reportReproduction(app.ctx(), reporter, { slug, result: 'partial', agent: 'claude-code', env: 'os: linux', tokens: 7 });
    }
    expect(await aggregatesOf(slug)).toEqual({ tokens: { reports: 3, median: 7 } });
  });
});

describe('what the aggregates cost a read', () => {
  it('below 3 counted reproducers get_story reads no reproduction at all', async () => {
    const slug = await published('Cheap below three');
    for (const reporter of reporters.slice(0, 2)) await reportReproduction(app.ctx(), reporter, fullReport(slug, 'codex', 1));
    app.counter().reset();
    await getStory(app.ctx(), undefined, { slug });
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 2, Query: 1 });
  });

  it('from 3 on, one Query more, beside the handle read', async () => {
    const slug = await published('One query from three');
    for (const reporter of reporters.slice(0, 3)) await reportReproduction(app.ctx(), reporter, fullReport(slug, 'codex', 1));
    app.counter().reset();
    await getStory(app.ctx(), undefined, { slug });
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 2, Query: 2 });
  });

  it('reports spread over many Query pages are all counted', async () => {
    const slug = await published('Paged reports');
    for (const [index, reporter] of reporters.entries())
      await reportReproduction(app.ctx(), reporter, fullReport(slug, 'codex', index + 1));
    const client = app.ctx().store.client;
    // One item per page, as a story near the reproducer cap is paged by DynamoDB at 1 MB.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (String(context.commandName).startsWith('Query')) (args.input as { Limit?: number }).Limit = 1;
        return next(args);
      },
      { step: 'initialize', name: 'onePerPage' },
    );
    try {
      app.counter().reset();
      const aggregates = await aggregatesOf(slug);
      expect(aggregates.by_agent_family).toEqual({ reports: 6, buckets: [{ name: 'codex', reports: 6 }], other: 0 });
      expect(aggregates.duration_min).toEqual({ reports: 6, median: 3.5 });
      expect(app.counter().snapshot().Query).toBeGreaterThan(6);
    } finally {
      client.middlewareStack.remove('onePerPage');
    }
  });
});
