// The aggregation rules on their own: each figure only from 3 reports carrying its field, a name
// in a breakdown only when 3 reports share it, medians of odd and even counts, one name per family.
import { describe, expect, it } from 'vitest';
import {
  aggregateReports,
  MAX_LABEL_CHARS,
  MAX_NAMED_BUCKETS,
  normaliseLabel,
  type ReportFacts,
} from '../../../src/domain/reproduction-aggregates.ts';

const times = (count: number, facts: ReportFacts): ReportFacts[] => Array.from({ length: count }, () => ({ ...facts }));

describe('each figure shows only from 3 reports carrying its field', () => {
  it('by agent family: absent at 2 reports, present at 3', () => {
    expect(aggregateReports(times(2, { agentFamily: 'claude-code' }))).toEqual({});
    expect(aggregateReports(times(3, { agentFamily: 'claude-code' })).by_agent_family).toEqual({
      reports: 3,
      buckets: [{ name: 'claude-code', reports: 3 }],
      other: 0,
    });
  });

  it('by OS: absent at 2 reports, present at 3', () => {
    expect(aggregateReports(times(2, { os: 'linux' }))).toEqual({});
    expect(aggregateReports(times(3, { os: 'linux' })).by_os).toEqual({ reports: 3, buckets: [{ name: 'linux', reports: 3 }], other: 0 });
  });

  it('median duration_min: absent at 2 reports, present at 3', () => {
    expect(aggregateReports([{ durationMin: 5 }, { durationMin: 7 }])).toEqual({});
    expect(aggregateReports([{ durationMin: 5 }, { durationMin: 7 }, { durationMin: 30 }]).duration_min).toEqual({ reports: 3, median: 7 });
  });

  it('median tokens: absent at 2 reports, present at 3', () => {
    expect(aggregateReports([{ tokens: 100 }, { tokens: 900 }])).toEqual({});
    expect(aggregateReports([{ tokens: 100 }, { tokens: 900 }, { tokens: 400 }]).tokens).toEqual({ reports: 3, median: 400 });
  });

  it('counts per field: 3 reports with only 2 naming an OS show the family but not the OS', () => {
    const aggregates = aggregateReports([
      { agentFamily: 'codex', os: 'linux' },
      { agentFamily: 'codex', os: 'linux' },
      { agentFamily: 'codex', durationMin: 4 },
    ]);
    expect(aggregates.by_agent_family?.reports).toBe(3);
    expect(aggregates).not.toHaveProperty('by_os');
    expect(aggregates).not.toHaveProperty('duration_min');
  });
});

describe('medians', () => {
  it('an odd count answers the middle value, whatever order the reports came in', () => {
    expect(aggregateReports([9, 1, 4, 100, 3].map((durationMin) => ({ durationMin }))).duration_min).toEqual({ reports: 5, median: 4 });
  });

  it('an even count answers the mean of the two middle values', () => {
    expect(aggregateReports([10, 2, 8, 4].map((tokens) => ({ tokens }))).tokens).toEqual({ reports: 4, median: 6 });
    expect(aggregateReports([1, 2, 3, 4].map((durationMin) => ({ durationMin }))).duration_min?.median).toBe(2.5);
  });

  it('sorts numerically, not as text', () => {
    expect(aggregateReports([100, 20, 3].map((tokens) => ({ tokens }))).tokens?.median).toBe(20);
  });

  it('a value that is not a finite, non-negative number counts as absent', () => {
    const facts = [{ tokens: 5 }, { tokens: 6 }, { tokens: Number.NaN }, { tokens: -1 }, { tokens: Number.POSITIVE_INFINITY }];
    expect(aggregateReports(facts)).toEqual({});
  });
});

describe('breakdowns name only what 3 reports share', () => {
  it('a family used by 1 or 2 reports is folded into other, not named', () => {
    const aggregates = aggregateReports([
      ...times(3, { agentFamily: 'claude-code' }),
      { agentFamily: 'codex' },
      ...times(2, { agentFamily: 'aider' }),
    ]);
    expect(aggregates.by_agent_family).toEqual({ reports: 6, buckets: [{ name: 'claude-code', reports: 3 }], other: 3 });
  });

  it('three reports with three different families show the count and no name', () => {
    const aggregates = aggregateReports([{ os: 'linux' }, { os: 'macos' }, { os: 'windows' }]);
    expect(aggregates.by_os).toEqual({ reports: 3, buckets: [], other: 3 });
  });

  it('largest first, ties by name, at most the named-bucket limit; the rest count as other', () => {
    const families = Array.from({ length: MAX_NAMED_BUCKETS + 2 }, (_, index) => `agent-${String(index).padStart(2, '0')}`);
    // Reported in reverse name order, so the tie-break by name is what puts agent-00 first.
    const reports = families.flatMap((agentFamily, index) => times(index === 5 ? 4 : 3, { agentFamily })).reverse();
    const breakdown = aggregateReports(reports).by_agent_family;
    expect(breakdown?.buckets).toHaveLength(MAX_NAMED_BUCKETS);
    expect(breakdown?.buckets[0]).toEqual({ name: 'agent-05', reports: 4 });
    expect(breakdown?.buckets.slice(1, 3).map((bucket) => bucket.name)).toEqual(['agent-00', 'agent-01']);
    expect(breakdown?.other).toBe(6);
    expect(breakdown?.reports).toBe(3 * families.length + 1);
  });
});

describe('one name per family', () => {
  it('"Claude Code", " claude code ", "claude_code" and "CLAUDE-CODE" are one family', () => {
    const aggregates = aggregateReports(
      ['Claude Code', ' claude code ', 'claude_code', 'CLAUDE-CODE'].map((agentFamily) => ({ agentFamily })),
    );
    expect(aggregates.by_agent_family).toEqual({ reports: 4, buckets: [{ name: 'claude-code', reports: 4 }], other: 0 });
  });

  it('compatibility forms fold together and control or format characters are dropped', () => {
    expect(normaliseLabel('Ｃｏｄｅｘ')).toBe('codex');
    expect(normaliseLabel('co\u200bdex\u0007')).toBe('codex');
  });

  it('is cut at the label limit; blank, separators only, or not a string is absent', () => {
    expect(normaliseLabel('x'.repeat(MAX_LABEL_CHARS + 50))).toHaveLength(MAX_LABEL_CHARS);
    expect(normaliseLabel('   ')).toBeUndefined();
    expect(normaliseLabel(' - _ ')).toBeUndefined();
    expect(normaliseLabel(42)).toBeUndefined();
    expect(aggregateReports(times(3, { agentFamily: '  ' }))).toEqual({});
  });

  it("a hostile name is kept as text (escaping is the page's job), bounded", () => {
    expect(normaliseLabel('<script>alert("x")</script>')).toBe('<script>alert("x")</script>');
  });
});
