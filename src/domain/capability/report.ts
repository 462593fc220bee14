import { createHash } from 'node:crypto';
import { highestTier, tierRank } from './categories.ts';
import type { CapabilityFinding } from './finding.ts';
import { MAX_FINDINGS, MAX_STORY_FINDINGS } from './scan-limits.ts';
import { SCANNER_VERSION } from './scanner-version.ts';

export interface CapabilityReport {
  scanner_version: string;
  /** The highest tier among all findings (listed or omitted); T0 when there are none. */
  tier: CapabilityFinding['tier'];
  /**
   * Sorted by line, then tier (highest first), category, rule and evidence. At most MAX_FINDINGS of
   * the hashed text plus MAX_STORY_FINDINGS of the rest of a story.
   */
  findings: CapabilityFinding[];
  /** Findings past MAX_FINDINGS, dropped lowest tier first; counted so the cut is visible. */
  omitted_findings: number;
  /** sha256 (hex) of the UTF-8 of exactly the scanned text (docs/capability.md, "What is hashed"). */
  sha256: string;
}

const byImportance = (a: CapabilityFinding, b: CapabilityFinding): number => tierRank(b.tier) - tierRank(a.tier) || a.line - b.line;

// Plain code-unit order, not localeCompare: the same findings sort the same on every machine.
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byPlace = (a: CapabilityFinding, b: CapabilityFinding): number =>
  a.line - b.line ||
  tierRank(b.tier) - tierRank(a.tier) ||
  compareText(a.category, b.category) ||
  compareText(a.rule, b.rule) ||
  compareText(a.evidence, b.evidence) ||
  compareText(a.via, b.via);

const mostImportant = (findings: CapabilityFinding[], count: number): CapabilityFinding[] =>
  findings.length <= count ? findings : findings.sort(byImportance).slice(0, count);

/** The report over `scannedText`: duplicates dropped, findings bounded and in a fixed order. */
export function buildReport(scannedText: string, findings: readonly CapabilityFinding[]): CapabilityReport {
  const unique = new Map<string, CapabilityFinding>();
  for (const found of findings) {
    // The same command can be reached twice (as itself and inside `bash -c`): one finding, and
    // the parsed reading wins over the token scan by sorting first.
    const key = JSON.stringify([found.line, found.category, found.rule, found.evidence, found.section]);
    const kept = unique.get(key);
    if (kept === undefined || compareText(found.via, kept.via) < 0) unique.set(key, found);
  }
  const all = [...unique.values()];
  const listed = [
    ...mostImportant(
      all.filter((found) => found.section !== 'story'),
      MAX_FINDINGS,
    ),
    ...mostImportant(
      all.filter((found) => found.section === 'story'),
      MAX_STORY_FINDINGS,
    ),
  ];
  return {
    scanner_version: SCANNER_VERSION,
    tier: highestTier(all.map((found) => found.tier)),
    findings: listed.sort(byPlace),
    omitted_findings: all.length - listed.length,
    sha256: createHash('sha256').update(scannedText, 'utf8').digest('hex'),
  };
}
