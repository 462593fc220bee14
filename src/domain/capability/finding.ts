import { CATEGORY_TIERS, type Category, type Tier } from './categories.ts';
import { MAX_EVIDENCE_CHARS } from './scan-limits.ts';

/**
 * Where a finding was read: a section of a story, the whole text given to check_capability, or
 * (`story`) the rest of a story, read only for text addressed to the reading agent. `story`
 * findings are outside the hashed text: they are the story's, not its steps'.
 */
export type ScannedSection = 'check' | 'reproduce' | 'text' | 'story';

/**
 * How the evidence was read: shell parsed by unbash, shell token-scanned because unbash could not
 * parse it (a weaker, more suspicious reading), a script language read line by line, a code
 * block's characters whatever its language, or prose.
 */
export type FindingSource = 'shell' | 'shell-token-scan' | 'python' | 'javascript' | 'powershell' | 'sql' | 'code' | 'prose';

export interface CapabilityFinding {
  category: Category;
  tier: Tier;
  /** A stable name for the rule that matched, e.g. `download-piped-to-shell`. */
  rule: string;
  /** The command or line that matched, whitespace collapsed, at most MAX_EVIDENCE_CHARS characters. */
  evidence: string;
  /** 1-based line in the scanned markdown (the story as stored, or the text as normalised). */
  line: number;
  section: ScannedSection;
  via: FindingSource;
}

/** What a rule reports before the scan knows the section and the line in the whole text. */
export interface Hit {
  category: Category;
  rule: string;
}

export const hit = (category: Category, rule: string): Hit => ({ category, rule });

// Characters a reader cannot see, shown as escapes so the evidence shows what is really there.
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

// Evidence is read from at most this much of its source: a 256 KiB line can be the evidence of
// thousands of findings, and reading all of it for each would be quadratic.
const EVIDENCE_SOURCE_CHARS = 8 * MAX_EVIDENCE_CHARS;

/** The evidence as shown: invisible characters escaped, whitespace runs made one space, bounded. */
export function boundEvidence(text: string): string {
  const cut = text.length > EVIDENCE_SOURCE_CHARS;
  const visible = text
    .slice(0, EVIDENCE_SOURCE_CHARS)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(INVISIBLE, (char) => `\\u{${char.codePointAt(0)?.toString(16).toUpperCase()}}`);
  const chars = [...visible];
  return chars.length <= MAX_EVIDENCE_CHARS && !cut ? visible : `${chars.slice(0, MAX_EVIDENCE_CHARS - 1).join('')}…`;
}

export function finding(hit: Hit, evidence: string, line: number, section: ScannedSection, via: FindingSource): CapabilityFinding {
  return {
    category: hit.category,
    tier: CATEGORY_TIERS[hit.category],
    rule: hit.rule,
    evidence: boundEvidence(evidence),
    line,
    section,
    via,
  };
}
