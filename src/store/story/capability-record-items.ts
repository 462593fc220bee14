// The capability record: the tier of one scanned text under one scanner version, found by the
// first 12 hex digits of the text's sha256 (docs/design.md#data, "capability record"). It is a fact
// about a text, not about a story: two stories with the same steps share one record, and an edit
// leaves the old text's record in place. Created once: the same text and version always give the
// same report, so a record that exists is already the right one.

import { CATEGORY_TIERS, type Category, highestTier, type Tier } from '../../domain/capability/categories.ts';
import type { CapabilityReport } from '../../domain/capability/report.ts';
import type { PutAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';

/** The hex digits of a sha256 a badge URL carries: 48 bits, short enough for a README, long enough to rarely collide. */
export const CAPABILITY_PREFIX_LENGTH = 12;

export const capabilityRecordPartition = (sha12: string): string => `CAP#${sha12}`;

/** One record per (text, scanner version); the full sha256 first, so every version of a text sorts together. */
export function capabilityRecordKey(sha256: string, scannerVersion: string): ItemKey {
  return { PK: capabilityRecordPartition(sha256.slice(0, CAPABILITY_PREFIX_LENGTH)), SK: `${sha256}#V#${scannerVersion}` };
}

export interface CapabilityRecord {
  sha256: string;
  tier: Tier;
  /** The categories of the listed findings, in the order of the tier table (highest first). */
  categories: Category[];
  scanner_version: string;
  /** When lorebook first scanned this text under this version (the record is never rewritten). */
  scanned_at: string;
}

const CATEGORY_ORDER = Object.keys(CATEGORY_TIERS) as Category[];

/**
 * The record holds what the text's own findings say: a story's narrative findings (section
 * `story`) are outside the hashed text, and two stories with the same steps share one record.
 * The steps' findings are listed apart from them, highest tiers first, so their highest tier is
 * always among those listed.
 */
export function capabilityRecord(report: CapabilityReport, at: string): CapabilityRecord {
  const own = report.findings.filter((finding) => finding.section !== 'story');
  const found = new Set(own.map((finding) => finding.category));
  return {
    sha256: report.sha256,
    tier: highestTier(own.map((finding) => finding.tier)),
    categories: CATEGORY_ORDER.filter((category) => found.has(category)),
    scanner_version: report.scanner_version,
    scanned_at: at,
  };
}

/** Creates the record once; a plan writes it only when its snapshot found none. */
export function createCapabilityRecord(report: CapabilityReport, at: string): PutAction {
  return createItem({ ...capabilityRecordKey(report.sha256, report.scanner_version), ...capabilityRecord(report, at) });
}

export function toCapabilityRecord(item: Record<string, unknown>): CapabilityRecord {
  return {
    sha256: String(item.sha256),
    tier: item.tier as Tier,
    categories: Array.isArray(item.categories) ? (item.categories as Category[]) : [],
    scanner_version: String(item.scanner_version),
    scanned_at: String(item.scanned_at),
  };
}
