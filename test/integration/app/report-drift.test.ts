import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportDrift } from '../../../src/app/report-drift.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { withdrawReproduction } from '../../../src/app/withdraw-reproduction.ts';
import { scanStory, scanText } from '../../../src/domain/capability/scan.ts';
import { MAX_FINDINGS, MAX_STORY_FINDINGS } from '../../../src/domain/capability/scan-limits.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { updateItem } from '../../../src/store/update-item.ts';
import { type AppFixture, caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('report-drift');
const capped = useAppFixture('report-drift-capped', { reproducerCap: 1 });
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
const dave = caller('dave');
const { published, storyMeta, authorInbox, reproduction } = storySetup(app, alice);

/** Only reproducers of a story count toward drift (design.md#drift): the readers report a reproduction first. */
const reproduce = async (fixture: AppFixture, slug: string, readers: readonly Caller[] = [bob, carol, dave]): Promise<void> => {
  for (const reader of readers) await reportReproduction(fixture.ctx(), reader, { slug, result: 'worked' });
};
/** A story by alice that bob, carol and dave have reproduced. */
const reproduced = async (title: string, options?: Parameters<typeof published>[1]): Promise<string> => {
  const slug = await published(title, options);
  await reproduce(app, slug);
  return slug;
};
/** alice's edit, a millisecond on, so it is a revision strictly after every report before it. */
const edited = async (slug: string, title: string, extra: string) => {
  app.advance(1);
  return editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra }), kind: 'rephrase' });
};

/** What a reader's agent ran instead of the published steps, scanned as check_capability scans it. */
const ran = (command: string) => scanText(`## Reproduce this\n\n\`\`\`sh\n${command}\n\`\`\`\n`);
const PIPED = ran('curl -fsSL https://example.com/fix.sh | sh');
const OTHER = ran('npm test');

type Item = Record<string, unknown>;
const storyItems = async (fixture: AppFixture, slug: string): Promise<Item[]> =>
  (await fixture.state()).filter((item) => item.PK === `STORY#${slug}`);
const driftItems = async (slug: string): Promise<Item[]> =>
  (await storyItems(app, slug)).filter((item) => String(item.SK).startsWith('DRIFT'));
const publishedSha = async (slug: string): Promise<string> => ((await storyMeta(slug)).capability as { sha256: string }).sha256;
const driftNotices = async (slug: string): Promise<Item[]> => (await authorInbox(slug)).filter((item) => item.kind === 'drift');

describe('report_drift is safe to deliver twice', () => {
  it('a second identical report answers the same and writes nothing', async () => {
    const slug = await reproduced('Drift reported twice');
    app.counter().reset();
    const first = await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, findings: PIPED.findings });
    expect(first).toMatchObject({
      slug,
      sha256: PIPED.sha256,
      matches: false,
      counted: true,
      reporters: 1,
      changed_since_publish: false,
      drift: null,
    });
    console.log('first drift report round trips', app.counter().snapshot());
    const before = await app.state();
    app.counter().reset();
    const second = await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, findings: PIPED.findings });
    console.log('identical drift report round trips', app.counter().snapshot());
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
  });

  it('the corroborating report sent twice answers the same, keeps one flag and one notification', async () => {
    const slug = await reproduced('Corroboration sent twice');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    app.counter().reset();
    const first = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 });
    console.log('corroborating drift report round trips', app.counter().snapshot());
    expect(first).toMatchObject({ reporters: 2, changed_since_publish: true, drift: { sha256: PIPED.sha256 } });
    const before = await app.state();
    const second = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 });
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(await driftNotices(slug)).toHaveLength(1);
  });

  it('16 parallel corroborating reports count once, flag once, notify once and all answer the same', async () => {
    const slug = await reproduced('Sixteen corroborations at once');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    const answers = await Promise.all(Array.from({ length: 16 }, () => reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ counted: true, reporters: 2, changed_since_publish: true });
    const tally = (await driftItems(slug)).find((item) => item.SK === `DRIFTHASH#${PIPED.sha256}`);
    expect(tally?.reporters).toEqual([bob.account, carol.account]);
    expect((await storyMeta(slug)).drift).toEqual(answers[0]?.drift);
    expect(await driftNotices(slug)).toHaveLength(1);
  });

  it('an op_id replay after a different change returns the first answer and changes nothing: items and notifications', async () => {
    const slug = await reproduced('Drift replayed later');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    const first = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256, findings: PIPED.findings, op_id: 'op-drift-1' });
    await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256, findings: OTHER.findings });
    const before = await app.state();
    app.counter().reset();
    const replay = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256, findings: PIPED.findings, op_id: 'op-drift-1' });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
    expect(await driftNotices(slug)).toHaveLength(1);
  });

  it('the same op_id with other findings is idempotency_key_reused and writes nothing', async () => {
    const slug = await reproduced('Drift op reused');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, op_id: 'op-drift-reused' });
    const before = await app.allItems();
    const error = await refusal(
      reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, findings: PIPED.findings, op_id: 'op-drift-reused' }),
    );
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });
});

/** What the reports decided, without the times they happened at. */
const decided = async (fixture: AppFixture, slug: string): Promise<Item[]> =>
  (await storyItems(fixture, slug)).map(
    ({ at: _at, notified_at: _n, updated_at: _u, published_at: _p, GSI1SK: _1, GSI2SK: _2, GSI3SK: _3, drift, ...rest }) => ({
      ...rest,
      drift: drift === undefined ? undefined : (drift as Item).sha256,
    }),
  );

describe('two independent readers of one other hash mark the story changed since publish', () => {
  // One table per arrival order, so both runs publish the very same story under the same slug.
  const orders = [useAppFixture('drift-order-bc'), useAppFixture('drift-order-cb')] as const;

  it('two reproducers, bob then carol or carol then bob: the same final state, the flag set, one notification', async () => {
    const states: Item[][] = [];
    for (const [index, reporters] of [
      [bob, carol],
      [carol, bob],
    ].entries()) {
      const fixture = orders[index] as AppFixture;
      const { slug } = await publishStory(fixture.ctx(), alice, { markdown: storyTitled('Drift in either order') });
      for (const reporter of reporters) {
        await reproduce(fixture, slug, [reporter]);
        await reportDrift(fixture.ctx(), reporter, { slug, sha256: PIPED.sha256, findings: PIPED.findings });
      }
      const meta = (await storyItems(fixture, slug)).find((item) => item.SK === 'META');
      expect(meta?.drift).toMatchObject({ sha256: PIPED.sha256 });
      const notices = (await fixture.state()).filter((item) => item.PK === `INBOX#${alice.account}` && item.kind === 'drift');
      expect(notices).toHaveLength(1);
      states.push(await decided(fixture, slug));
    }
    expect(states[1]).toEqual(states[0]);
  });

  it('two readers reporting at the same moment flag the story once and notify once', async () => {
    const slugs = await Promise.all([1, 2, 3].map((n) => reproduced(`Drift race ${n}`)));
    await Promise.all(slugs.flatMap((slug) => [bob, carol].map((who) => reportDrift(app.ctx(), who, { slug, sha256: PIPED.sha256 }))));
    for (const slug of slugs) {
      expect((await storyMeta(slug)).drift).toMatchObject({ sha256: PIPED.sha256 });
      expect(await driftNotices(slug)).toHaveLength(1);
    }
  });

  it('two readers joining one reader at the same moment tell the author of that hash once, even when the story is already marked', async () => {
    const slug = await reproduced('Drift joined at once');
    for (const reader of [bob, carol]) await reportDrift(app.ctx(), reader, { slug, sha256: PIPED.sha256 });
    await reportDrift(app.ctx(), bob, { slug, sha256: OTHER.sha256 });
    // dave's report lands between carol's read and her write: both read one reporter of OTHER.
    afterNextRead(app.ctx(), () => reportDrift(app.ctx(), dave, { slug, sha256: OTHER.sha256 }));
    const answer = await reportDrift(app.ctx(), carol, { slug, sha256: OTHER.sha256 });
    expect(answer).toMatchObject({ counted: true, reporters: 3 });
    const told = (await driftNotices(slug)).filter((item) => String(item.text).includes(OTHER.sha256.slice(0, 12)));
    expect(told).toHaveLength(1);
  });

  it('one reader alone does not mark it, whatever it reports', async () => {
    const slug = await reproduced('One reader drifting');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    const other = await reportDrift(app.ctx(), bob, { slug, sha256: OTHER.sha256 });
    expect(other).toMatchObject({ counted: true, reporters: 1, changed_since_publish: false });
    expect((await storyMeta(slug)).drift).toBeUndefined();
    expect(await driftNotices(slug)).toEqual([]);
  });

  it("the author's own report is kept uncounted: the author and one reader do not mark it", async () => {
    const slug = await reproduced('Author drifting');
    const own = await reportDrift(app.ctx(), alice, { slug, sha256: PIPED.sha256 });
    expect(own).toMatchObject({ matches: false, counted: false, reporters: 0 });
    const reader = await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    expect(reader).toMatchObject({ counted: true, reporters: 1, changed_since_publish: false });
    expect((await driftItems(slug)).find((item) => item.SK === `DRIFT#${PIPED.sha256}#${alice.account}`)).toMatchObject({ counted: false });
    expect((await storyMeta(slug)).drift).toBeUndefined();
  });

  it('a report of the published hash is stored but never counts, however many send it', async () => {
    const slug = await reproduced('Ran as published');
    const sha256 = await publishedSha(slug);
    for (const reader of [bob, carol, dave]) {
      const answer = await reportDrift(app.ctx(), reader, { slug, sha256: sha256.toUpperCase() });
      expect(answer).toMatchObject({ sha256, matches: true, counted: false, reporters: 0, changed_since_publish: false });
    }
    const items = await driftItems(slug);
    expect(items.map((item) => item.SK).sort()).toEqual([bob, carol, dave].map((who) => `DRIFT#${sha256}#${who.account}`).sort());
    expect((await storyMeta(slug)).drift).toBeUndefined();
  });

  it('a third reporter changes nothing more: the flag keeps its hash and time, no second notification', async () => {
    const slug = await reproduced('Third drift reporter');
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 });
    const flag = (await storyMeta(slug)).drift;
    const third = await reportDrift(app.ctx(), dave, { slug, sha256: PIPED.sha256 });
    expect(third).toMatchObject({ counted: true, reporters: 3, changed_since_publish: true, drift: flag });
    expect((await storyMeta(slug)).drift).toEqual(flag);
    expect(await driftNotices(slug)).toHaveLength(1);
  });

  it('a second corroborated hash keeps the first flag and tells the author of the new hash once', async () => {
    const slug = await reproduced('Two drifted hashes');
    for (const reader of [bob, carol]) await reportDrift(app.ctx(), reader, { slug, sha256: PIPED.sha256 });
    const flag = (await storyMeta(slug)).drift;
    for (const reader of [bob, carol]) await reportDrift(app.ctx(), reader, { slug, sha256: OTHER.sha256 });
    expect((await storyMeta(slug)).drift).toEqual(flag);
    expect((await driftNotices(slug)).map((item) => item.text)).toEqual(
      expect.arrayContaining([expect.stringContaining(PIPED.sha256.slice(0, 12)), expect.stringContaining(OTHER.sha256.slice(0, 12))]),
    );
    expect(await driftNotices(slug)).toHaveLength(2);
  });

  it('the answer says which categories the findings add and which the published report has that they lack', async () => {
    const slug = await reproduced('Drift categories');
    const publishedCategories = new Set(
      ((await storyMeta(slug)).capability as { findings: { category: string }[] }).findings.map((f) => f.category),
    );
    const answer = await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, findings: PIPED.findings });
    expect(answer.categories?.added).toContain('remote_execution');
    for (const category of answer.categories?.removed ?? []) expect(publishedCategories.has(category)).toBe(true);
    expect(answer.categories?.removed).toEqual(
      [...publishedCategories].filter((c) => !PIPED.findings.some((f) => f.category === c)).sort(byOrder),
    );
    const none = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 });
    expect(none.categories).toBeNull();
  });
});

const ORDER = [
  'remote_execution',
  'obfuscation',
  'persistence',
  'secrets',
  'destructive',
  'privilege',
  'exfiltration',
  'network',
  'local_execution',
  'file_write',
];
const byOrder = (a: string, b: string): number => ORDER.indexOf(a) - ORDER.indexOf(b);

describe('"changed since publish" holds until the author changes the story', () => {
  const corroborated = async (title: string): Promise<string> => {
    const slug = await reproduced(title);
    for (const reader of [bob, carol]) await reportDrift(app.ctx(), reader, { slug, sha256: PIPED.sha256 });
    expect((await storyMeta(slug)).drift).toBeDefined();
    return slug;
  };

  it('an edit clears it; readers start over against the new revision, and the author is not told of that hash again', async () => {
    const title = 'Drift cleared by an edit';
    const slug = await corroborated(title);
    await edited(slug, title, 'Edited.');
    expect((await storyMeta(slug)).drift).toBeUndefined();
    await reproduce(app, slug, [bob, carol]);
    const again = await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    expect(again).toMatchObject({ counted: true, reporters: 1, changed_since_publish: false });
    expect((await storyMeta(slug)).drift).toBeUndefined();
    const second = await reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 });
    expect(second).toMatchObject({ reporters: 2, changed_since_publish: true });
    expect(await driftNotices(slug)).toHaveLength(1);
  });

  it('a republish with changed content clears it; an identical republish keeps it', async () => {
    const title = 'Drift and republish';
    const slug = await corroborated(title);
    await publishStory(app.ctx(), alice, { markdown: storyTitled(title) });
    expect((await storyMeta(slug)).drift).toBeDefined();
    await publishStory(app.ctx(), alice, { markdown: storyTitled(title, { extra: 'Republished.' }) });
    expect((await storyMeta(slug)).drift).toBeUndefined();
  });

  it("an edit that lands between the corroborating report's read and its write is never flagged by it", async () => {
    const title = 'Edit races corroboration';
    const slug = await reproduced(title);
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    afterNextRead(app.ctx(), () => edited(slug, title, 'Edited.'));
    // Re-planned after the edit, carol's reproduction predates the revision: refused.
    const error = await refusal(reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 }));
    expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { revision: 2 } });
    expect((await driftItems(slug)).map((item) => item.SK)).not.toContain(`DRIFT#${PIPED.sha256}#${carol.account}`);
    expect((await storyMeta(slug)).drift).toBeUndefined();
    expect(await driftNotices(slug)).toEqual([]);
  });

  it("a corroboration that lands between an edit's read and its write is cleared by the edit", async () => {
    const title = 'Corroboration races edit';
    const slug = await reproduced(title);
    await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 });
    afterNextRead(app.ctx(), () => reportDrift(app.ctx(), carol, { slug, sha256: PIPED.sha256 }));
    await edited(slug, title, 'Edited.');
    expect((await storyMeta(slug)).revision).toBe(2);
    expect((await storyMeta(slug)).drift).toBeUndefined();
  });

  it('a hash the edit adopted matches from then on: sent again, the report is judged against the new revision and counts no more', async () => {
    const title = 'Drift adopted by an edit';
    const slug = await reproduced(title);
    const adopted = scanStory(storyPipingToShell(title)).sha256;
    expect(await reportDrift(app.ctx(), bob, { slug, sha256: adopted })).toMatchObject({ matches: false, counted: true });
    app.advance(1);
    await editStory(app.ctx(), alice, { slug, markdown: storyPipingToShell(title), kind: 'addition' });
    await reproduce(app, slug, [bob]);
    const again = await reportDrift(app.ctx(), bob, { slug, sha256: adopted });
    expect(again).toMatchObject({ matches: true, counted: false, reporters: 0, published: { sha256: adopted } });
    expect((await driftItems(slug)).find((item) => item.SK === `DRIFT#${adopted}#${bob.account}`)).toMatchObject({
      revision: 2,
      matches: true,
      counted: false,
    });
  });

  it('get_story answers changed_since_publish with the hash and since, and false after the edit', async () => {
    const title = 'Drift shown by get_story';
    const slug = await corroborated(title);
    const view = await getStory(app.ctx(), undefined, { slug });
    expect(view.capability).toMatchObject({ changed_since_publish: true, drift: { sha256: PIPED.sha256 } });
    await edited(slug, title, 'Edited.');
    expect((await getStory(app.ctx(), undefined, { slug })).capability).toMatchObject({ changed_since_publish: false, drift: null });
  });
});

const threshold3 = useAppFixture('report-drift-threshold-3', { driftReporters: 3 });
const erin = caller('erin');

describe('only reproducers of the current revision count toward "changed since publish"', () => {
  it('two throwaway accounts that never reproduced the story cannot mark it, even with an invented T4 hash', async () => {
    const slug = await published('Throwaways report drift');
    const throwaways = [caller('throwaway-1'), caller('throwaway-2')];
    for (const stranger of throwaways) {
      const answer = await reportDrift(app.ctx(), stranger, { slug, sha256: PIPED.sha256, findings: PIPED.findings });
      expect(answer).toMatchObject({ matches: false, counted: false, reporters: 0, changed_since_publish: false, drift: null });
    }
    expect((await driftItems(slug)).filter((item) => String(item.SK).startsWith('DRIFTHASH#'))).toEqual([]);
    expect((await storyMeta(slug)).drift).toBeUndefined();
    expect(await driftNotices(slug)).toEqual([]);
    expect((await getStory(app.ctx(), undefined, { slug })).capability).toMatchObject({ changed_since_publish: false });
  });

  it('a report sent before reproducing counts once the reader has reproduced and sends it again', async () => {
    const slug = await published('Drift before reproducing');
    expect(await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 })).toMatchObject({ counted: false, reporters: 0 });
    await reproduce(app, slug, [bob]);
    expect(await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 })).toMatchObject({ counted: true, reporters: 1 });
  });

  it('a reproducer whose reproduction predates the current revision is refused, with what to do, and nothing is written', async () => {
    const title = 'Drift after an edit';
    const slug = await reproduced(title);
    await edited(slug, title, 'Steps changed.');
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, op_id: 'op-drift-outdated' }));
    expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { slug, revision: 2 } });
    expect(error.message).toContain('report_reproduction');
    expect(await app.allItems()).toEqual(before);
  });

  it('report_reproduction sent again after the edit renews the reproduction once (16 at once), without a count or a notice, and drift counts again', async () => {
    const title = 'Reproduced again after an edit';
    const slug = await reproduced(title);
    const first = await reproduction(slug, bob.account);
    await edited(slug, title, 'Steps changed.');
    const counts = (await storyMeta(slug)).counts;
    const notices = (await authorInbox(slug)).length;
    const answers = await Promise.all(Array.from({ length: 16 }, () => reportReproduction(app.ctx(), bob, { slug, result: 'worked' })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const renewed = await reproduction(slug, bob.account);
    expect(String(renewed?.at) > String(first?.at)).toBe(true);
    expect((await storyMeta(slug)).counts).toEqual(counts);
    expect(await authorInbox(slug)).toHaveLength(notices);
    const before = await app.state();
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    expect(await app.state()).toEqual(before);
    expect(await reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 })).toMatchObject({ counted: true, reporters: 1 });
  });

  it('with LOREBOOK_DRIFT_REPORTERS=3, two reproducers do not mark the story and the third does, telling the author once', async () => {
    const { slug } = await publishStory(threshold3.ctx(), alice, { markdown: storyTitled('Three reporters needed') });
    await reproduce(threshold3, slug, [bob, carol, erin]);
    for (const reader of [bob, carol]) {
      expect(await reportDrift(threshold3.ctx(), reader, { slug, sha256: PIPED.sha256 })).toMatchObject({ changed_since_publish: false });
    }
    const third = await reportDrift(threshold3.ctx(), erin, { slug, sha256: PIPED.sha256 });
    expect(third).toMatchObject({ reporters: 3, changed_since_publish: true, drift: { sha256: PIPED.sha256 } });
    const notices = (await threshold3.state()).filter((item) => item.PK === `INBOX#${alice.account}` && item.kind === 'drift');
    expect(notices.map((item) => item.text)).toEqual([expect.stringMatching(/^3 readers who reproduced it ran steps/)]);
  });
});

describe('report_drift refuses what it cannot take, writing nothing', () => {
  const tooMany = Array.from({ length: MAX_FINDINGS + MAX_STORY_FINDINGS + 1 }, (_, line) => ({
    ...(PIPED.findings[0] as object),
    line: line + 1,
  }));
  it.each([
    ['a sha256 that is not 64 hex digits', { sha256: 'abc123' }],
    ['a sha256 with a non-hex digit', { sha256: 'g'.repeat(64) }],
    ['a missing sha256', { sha256: undefined }],
    ['41 findings (32 of the steps and 8 of the story are the most an answer lists)', { findings: tooMany }],
    ['a finding of an unknown category', { findings: [{ ...PIPED.findings[0], category: 'telepathy' }] }],
    ["a finding whose tier is not its category's", { findings: [{ ...PIPED.findings[0], tier: 'T0' }] }],
    ['a finding with evidence over 400 characters', { findings: [{ ...PIPED.findings[0], evidence: 'x'.repeat(401) }] }],
    ['an unknown field', { result: 'worked' }],
    ['a slug that is not a slug', { slug: '../etc' }],
    ['a malformed op_id', { op_id: '' }],
  ])('%s is validation_failed', async (_name, change) => {
    const slug = await published('Bad drift input');
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, ...change }));
    expect(error.code).toBe('validation_failed');
    expect(error.retryable).toBe(false);
    expect(await app.allItems()).toEqual(before);
  });

  it('a reporter past the cap of one hash is a non-retryable conflict and writes nothing', async () => {
    const { slug } = await publishStory(capped.ctx(), alice, { markdown: storyTitled('Drift past the cap') });
    await reproduce(capped, slug, [bob]);
    await reportDrift(capped.ctx(), bob, { slug, sha256: PIPED.sha256 });
    // The cap of 1 holds reproducers too: carol reproduces once bob's reproduction is withdrawn.
    await withdrawReproduction(capped.ctx(), bob, { slug });
    await reproduce(capped, slug, [carol]);
    const before = await capped.allItems();
    const error = await refusal(reportDrift(capped.ctx(), carol, { slug, sha256: PIPED.sha256 }));
    expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { reporter_cap: 1 } });
    expect(await capped.allItems()).toEqual(before);
  });

  it('an unknown story is not_found', async () => {
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug: '2026-01-01-no-such-story', sha256: PIPED.sha256 }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it("someone else's private story is not_found", async () => {
    const slug = await published('Private drift target', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it('a hidden story is not_found', async () => {
    const slug = await published('Hidden drift target');
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256, op_id: 'op-drift-hidden' }));
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it('a story last written before scanning is a non-retryable conflict', async () => {
    const slug = await published('Drift on an unscanned story');
    await writeAtomically(app.ctx().store, [updateItem(storyKey(slug), { remove: ['capability'] })]);
    const before = await app.allItems();
    const error = await refusal(reportDrift(app.ctx(), bob, { slug, sha256: PIPED.sha256 }));
    expect(error.code).toBe('conflict');
    expect(error.retryable).toBe(false);
    expect(await app.allItems()).toEqual(before);
  });
});
