// The secret scan (docs/design.md §18): secretlint's recommended preset, its AWS access key id
// check turned on, plus lorebook's own patterns (./extra-secret-patterns.ts), minus
// documentation placeholders (./placeholder.ts). A finding names the kind and the line, never the
// value: nothing that leaves this module holds a byte of what was found.
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { extraSecretMatches } from './extra-secret-patterns.ts';
import { isPlaceholder } from './placeholder.ts';
import { secretKindOf, type SecretKind } from './secret-kinds.ts';

export interface SecretFinding {
  kind: string;
  label: string;
  /** 1-based line of the text the finding starts on. */
  line: number;
}

const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommended,
      rules: [
        // Off by default in secretlint (an id alone cannot sign a request); a story must not
        // publish half of a key pair either, and the id is what names the account.
        { id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } },
        // `secretlint-disable` comments would let the text being scanned switch the scan off.
        { id: '@secretlint/secretlint-rule-filter-comments', disabled: true },
      ],
    },
  ],
};

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
