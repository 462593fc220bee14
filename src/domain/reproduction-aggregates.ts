// Aggregates over a story's counted reproduction reports: how many by agent family and by OS, the
// median duration_min and tokens. A figure is shown only once at least MIN_REPORTS_PER_FIGURE
// reports carry its field, and a breakdown names a family or OS only when at least
// MIN_REPORTS_PER_BUCKET reports share it (the rest are counted together as `other`), so no figure
// rests on one or two people and no shown name points at one (docs/design.md#aggregates).

/** What one counted report contributes; a field it did not send is absent. */
export interface ReportFacts {
  agentFamily?: string | undefined;
  os?: string | undefined;
  durationMin?: number | undefined;
  tokens?: number | undefined;
}

export const MIN_REPORTS_PER_FIGURE = 3;
export const MIN_REPORTS_PER_BUCKET = 3;
/** A breakdown names at most this many buckets (the largest); the rest count as `other`. */
export const MAX_NAMED_BUCKETS = 10;
/** A normalised family or OS name is cut at this many characters (the stored ones are shorter). */
export const MAX_LABEL_CHARS = 40;

export interface Bucket {
  name: string;
  reports: number;
}

export interface Breakdown {
  /** Reports that carry the field. */
  reports: number;
  /** Largest first, then by name; each shared by at least MIN_REPORTS_PER_BUCKET reports. */
  buckets: Bucket[];
  /** Reports whose value is shared by fewer than MIN_REPORTS_PER_BUCKET, or past the named buckets. */
  other: number;
}

export interface Median {
  reports: number;
  median: number;
}

export interface ReproductionAggregates {
  by_agent_family?: Breakdown;
  by_os?: Breakdown;
  duration_min?: Median;
  tokens?: Median;
}

/**
 * One name per family or OS: "Claude Code", " claude_code " and "claude-code" count together.
 * Compatibility forms folded (NFKC), lower case, control and format characters dropped, runs of
 * spaces, `_` and `-` made one `-`, cut at MAX_LABEL_CHARS. Blank is the same as absent.
 */
export function normaliseLabel(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const label = value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[\s_-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...label].slice(0, MAX_LABEL_CHARS).join('');
  return cut === '' ? undefined : cut;
}

/** A measurement counts only as a finite, non-negative number. */
export function measurement(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Folds reports one at a time, so a caller reading pages never holds more than one page of items. */
export class AggregateTally {
  private readonly families = new Map<string, number>();
  private readonly systems = new Map<string, number>();
  private readonly durations: number[] = [];
  private readonly tokenCounts: number[] = [];

  add(facts: ReportFacts): void {
    const family = normaliseLabel(facts.agentFamily);
    if (family !== undefined) this.families.set(family, (this.families.get(family) ?? 0) + 1);
    const os = normaliseLabel(facts.os);
    if (os !== undefined) this.systems.set(os, (this.systems.get(os) ?? 0) + 1);
    const duration = measurement(facts.durationMin);
    if (duration !== undefined) this.durations.push(duration);
    const tokens = measurement(facts.tokens);
    if (tokens !== undefined) this.tokenCounts.push(tokens);
  }

  summary(): ReproductionAggregates {
    const aggregates: ReproductionAggregates = {};
    const byAgentFamily = breakdown(this.families);
    if (byAgentFamily !== undefined) aggregates.by_agent_family = byAgentFamily;
    const byOs = breakdown(this.systems);
    if (byOs !== undefined) aggregates.by_os = byOs;
    const duration = median(this.durations);
    if (duration !== undefined) aggregates.duration_min = duration;
    const tokens = median(this.tokenCounts);
    if (tokens !== undefined) aggregates.tokens = tokens;
    return aggregates;
  }
}

export function aggregateReports(reports: Iterable<ReportFacts>): ReproductionAggregates {
  const tally = new AggregateTally();
  for (const facts of reports) tally.add(facts);
  return tally.summary();
}

function breakdown(counts: ReadonlyMap<string, number>): Breakdown | undefined {
  let reports = 0;
  for (const count of counts.values()) reports += count;
  if (reports < MIN_REPORTS_PER_FIGURE) return undefined;
  const buckets = [...counts]
    .filter(([, count]) => count >= MIN_REPORTS_PER_BUCKET)
    .map(([name, count]) => ({ name, reports: count }))
    .sort((a, b) => b.reports - a.reports || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, MAX_NAMED_BUCKETS);
  const named = buckets.reduce((sum, bucket) => sum + bucket.reports, 0);
  return { reports, buckets, other: reports - named };
}

/** The middle value; with an even count, the mean of the two middle ones. */
function median(values: readonly number[]): Median | undefined {
  if (values.length < MIN_REPORTS_PER_FIGURE) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { reports: values.length, median: value };
}
