// The capability report as answers carry it (docs/capability.md): the full report in get_story
// and check_capability, its summary in publish and edit answers.
import { z } from 'zod';
import { CATEGORY_TIERS, TIERS } from '../../domain/capability/categories.ts';
import { MAX_FINDINGS, MAX_STORY_FINDINGS } from '../../domain/capability/scan-limits.ts';

export const CATEGORIES = Object.keys(CATEGORY_TIERS) as [keyof typeof CATEGORY_TIERS, ...(keyof typeof CATEGORY_TIERS)[]];

export const capabilityTierSchema = z
  .enum(TIERS)
  .describe(
    "T4: fetches code and runs it, or hides what runs; T3: persistence, secrets, destructive, privilege, exfiltration, text addressed to the reading agent or changes to an agent's configuration; T2: network; T1: runs programs or writes local files; T0: nothing recognised (not a promise of harmless).",
  );

export const capabilityFindingSchema = z.object({
  category: z.enum(CATEGORIES),
  tier: capabilityTierSchema,
  rule: z.string().describe('A stable name for what matched, e.g. "download-piped-to-shell".'),
  evidence: z.string().describe('The command or line that matched, at most 200 characters; invisible characters shown as \\u{XXXX}.'),
  line: z.number().int().describe('1-based line: of the story as stored, or of the text as sent (normalised).'),
  section: z
    .enum(['check', 'reproduce', 'text', 'story'])
    .describe(
      "Where it was read: a story's check or reproduce steps, the text sent, or (story) the rest of a story, read only for text addressed to the reading agent and outside the hashed text.",
    ),
  via: z.enum(['shell', 'shell-token-scan', 'python', 'javascript', 'powershell', 'sql', 'code', 'prose']),
});

const capabilityFields = {
  scanner_version: z.string().describe('The scanner version that made the report: the same text and version always give the same report.'),
  tier: capabilityTierSchema,
  sha256: z.string().describe("sha256 (hex) of exactly the scanned text: a story's check and reproduce sections, or the text sent."),
};

export const capabilitySummarySchema = z
  .object(capabilityFields)
  .nullable()
  .describe(
    "The tier of the story's check and reproduce steps, to tell the person before they share it; null for a story last written before lorebook scanned stories.",
  );

export const capabilityReportSchema = z.object({
  ...capabilityFields,
  findings: z
    .array(capabilityFindingSchema)
    .max(MAX_FINDINGS + MAX_STORY_FINDINGS)
    .describe(
      `What was recognised, by line; at most ${MAX_FINDINGS} of the steps and ${MAX_STORY_FINDINGS} of the rest of a story, the rest counted in omitted_findings.`,
    ),
  omitted_findings: z.number().int().describe('Findings past the listed ones, dropped lowest tier first (the tier counts them).'),
});
