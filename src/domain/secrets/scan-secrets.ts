// The secret scan (docs/design.md#secrets): secretlint's recommended rules, the AWS access key id
// check turned on and secretlint-disable comments ignored, plus lorebook's own patterns (./extra-secret-patterns.ts), minus
// documentation placeholders (./placeholder.ts). A finding names the kind and the line, never the
// value: nothing that leaves this module holds a byte of what was found.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { extraSecretMatches } from './extra-secret-patterns.ts';
import { isPlaceholder } from './placeholder.ts';
import { type SecretKind, secretKindOf } from './secret-kinds.ts';

export interface SecretFinding {
  kind: string;
  label: string;
  /** 1-based line of the text the finding starts on. */
  line: number;
}

const FILTER_COMMENTS = '@secretlint/secretlint-rule-filter-comments';
const AWS = '@secretlint/secretlint-rule-aws';

/**
 * The AWS access key id check is off by default in secretlint (an id alone cannot sign a request);
 * a story must not publish half of a key pair either. The account id check it turns on too stays
 * quiet: AWS does not count account ids as secrets, and CDK and CloudTrail docs are full of them
 * (5 false refusals in node_modules, BENCHMARKS.md §10).
 */
const AWS_IDS = { options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] };

/**
 * The preset's rules one by one rather than the preset: a preset's `disabled` sub-rule is still
 * run by @secretlint/core 13.1.0, and one rule must not run at all — filter-comments, which
 * would let `secretlint-disable` comments in the very text being scanned switch the scan off.
 */
const CONFIG: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== FILTER_COMMENTS)
    .map((rule) => ({ id: rule.meta.id, rule, ...(rule.meta.id === AWS ? AWS_IDS : {}) })),
};

/**
 * secretlint's profiler is on by default: every scan puts a mark per rule on the process's
 * performance timeline, and its observer keeps every entry in arrays of its own, none ever
 * cleared. A server scans every publish and edit, so the process grew by each scan (the 5,000-story
 * seed of BENCHMARKS.md §15). lorebook never reads the profile: it is off, and marks nothing.
 * (@secretlint/core's own dependency, pinned to the same version, so this is the same instance.)
 */
secretLintProfiler.setEnabled(false);

/** Kinds whose matched text is a key's base64 body, where runs of one character are ordinary. */
const KEY_BODIES = new Set(['private_key', 'gcp_service_account']);

export async function scanForSecrets(text: string): Promise<SecretFinding[]> {
  const starts = lineStarts(text);
  const findings: SecretFinding[] = [];
  const keep = (kind: SecretKind, start: number, end: number): void => {
    if (isPlaceholder(text.slice(start, end), KEY_BODIES.has(kind.kind))) return;
    findings.push({ kind: kind.kind, label: kind.label, line: lineOf(starts, start) });
  };
  const result = await lintSource({
    source: { content: text, filePath: 'story.md', ext: '.md', contentType: 'text' },
    // maskSecrets: secretlint's own messages quote the value; lorebook never uses them, and masked
    // they hold nothing even if one were ever printed.
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  for (const message of result.messages) {
    keep(secretKindOf(message.messageId, message.ruleId), message.range[0], message.range[1]);
  }
  for (const match of extraSecretMatches(text)) keep(match, match.start, match.end);
  return dedupe(findings).sort((a, b) => a.line - b.line || a.kind.localeCompare(b.kind));
}

function dedupe(findings: SecretFinding[]): SecretFinding[] {
  const seen = new Map<string, SecretFinding>();
  for (const finding of findings) seen.set(`${finding.line}\u0000${finding.kind}`, finding);
  return [...seen.values()];
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
